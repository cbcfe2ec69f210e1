//! Open enumerations: a value the service adds later is kept, never an error.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! open_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident => $wire:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $var,)+
            /// A value no document lists; kept verbatim so it can be shown.
            Other(String),
        }

        impl $name {
            /// Every known value, in documentation order.
            pub const KNOWN: &'static [$name] = &[$($name::$var),+];

            /// The wire spelling.
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$var => $wire,)+
                    $name::Other(s) => s.as_str(),
                }
            }

            /// Parses a wire value; unknown values become `Other`.
            pub fn parse(text: &str) -> Self {
                match text {
                    $($wire => $name::$var,)+
                    other => $name::Other(other.to_owned()),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                Ok($name::parse(&s))
            }
        }
    };
}

open_enum!(
    /// Membership status of a club request.
    ///
    /// Per api-notes.md: `pending`, `approved`, `declined`; interface-spec.md shows only
    /// `approved`. Only a pending request can change, and only to approved or declined.
    MembershipStatus {
        /// Waiting for a decision.
        Pending => "pending",
        /// Accepted by club staff.
        Approved => "approved",
        /// Refused by club staff.
        Declined => "declined",
    }
);

open_enum!(
    /// Type of a club contact (api-notes.md, "Contact": eight values).
    ContactType {
        /// A telephone number.
        Phone => "phone",
        /// An e-mail address.
        Email => "email",
        /// A Facebook page or profile.
        Facebook => "facebook",
        /// A LINE id.
        Line => "line",
        /// An Instagram account.
        Instagram => "instagram",
        /// A web address.
        Website => "website",
        /// A Discord server or user.
        Discord => "discord",
        /// Anything else.
        OtherType => "other",
    }
);
