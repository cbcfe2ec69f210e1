//! The status line, row errors, the activity log and the `:` command line in Thai and in
//! English: the real `update` driven with keys and API answers, the real
//! view drawn on a `TestBackend`, each case in both languages.

use crate::common;
use crate::common::answers::ApiAnswer;

use club_admin::api::*;
use club_admin::app::model::*;
use club_admin::app::{ApiCall, AuditEntry, Effect, KeyCode, Msg, Outcome, update};
use club_admin::i18n::Lang;
use common::*;
use uuid::Uuid;

/// The Thai text or the English one, as the UI gives it (SARA AM made terminal-safe).
fn pick(lang: Lang, thai: &str, english: &str) -> String {
    match lang {
        Lang::Thai => club_admin::text::for_terminal(thai).into_owned(),
        Lang::English => english.to_owned(),
    }
}

/// The sample rows listed as for [`model_with`], read in `lang` from the start.
fn sample_in(lang: Lang) -> Model {
    model_with_lang(sample_rows(), lang)
}

/// (request id, target) of every PUT among `fx`.
fn puts(fx: &[Effect]) -> Vec<(u64, Uuid)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Api {
                request_id,
                call: ApiCall::UpdateRequest { id, .. },
                ..
            } => Some((*request_id, *id)),
            _ => None,
        })
        .collect()
}

/// Request ids of the GETs of one request among `fx`.
fn gets(fx: &[Effect], target: Uuid) -> Vec<u64> {
    api_ids(
        fx,
        |c| matches!(c, ApiCall::GetRequest { id, .. } if *id == target),
    )
}

fn audits(fx: &[Effect]) -> Vec<AuditEntry> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Audit(a) => Some(a.clone()),
            _ => None,
        })
        .collect()
}

fn with_status(r: Uuid, status: MembershipStatus) -> ClubRequest {
    let mut req = sample_rows()
        .into_iter()
        .find(|x| x.id == r)
        .expect("sample row");
    req.membership_status = Some(status);
    req
}

fn approved(r: Uuid) -> ApiAnswer {
    ApiAnswer::Updated(Ok(reply(with_status(r, MembershipStatus::Approved))))
}

fn not_found() -> ApiError {
    ApiError::NotFound(ErrorInfo {
        status: Some(404),
        error_type: Some("entity_not_found".into()),
        detail: Some("Club request not found".into()),
        error_id: Some("7f3c".into()),
        excerpt: None,
    })
}

const TIMEOUT: ApiError = ApiError::timeout(2500);

fn error_of(m: &Model, r: Uuid) -> String {
    m.queue()
        .get(r)
        .and_then(|i| i.shown_error())
        .unwrap_or_default()
        .to_owned()
}

// ---------------------------------------------------------------------------------------
// the status line: activities and notices

#[test]
fn a_start_without_a_token_says_so_in_the_readers_language() {
    for lang in Lang::ALL {
        let mut m = Model::new(ModelOptions {
            has_token: false,
            lang,
            now: now(),
            ..ModelOptions::new("http://127.0.0.1:9")
        });
        club_admin::app::start(&mut m);
        assert_eq!(
            status(&m),
            pick(
                lang,
                "ไม่มีโทเคน: กด S เพื่อเข้าสู่ระบบ (อ่านได้เฉพาะข้อมูลที่ใช้แค่คีย์ API)",
                "no token: press S to sign in (reads that need only the API key work)"
            )
        );
    }
}

#[test]
fn refreshing_and_the_loaded_count() {
    for lang in Lang::ALL {
        let mut m = sample_in(lang);
        let fx = update(&mut m, key('r'));
        assert_eq!(status(&m), pick(lang, "กำลังโหลดใหม่…", "refreshing…"));
        let page = api_ids(&fx, |c| {
            matches!(
                c,
                ApiCall::ListRequests {
                    purpose: club_admin::app::ListPurpose::Page { .. },
                    ..
                }
            )
        });
        assert_eq!(page.len(), 1);
        let pending: Vec<ClubRequest> = sample_rows()
            .into_iter()
            .filter(|r| r.membership() == Some(&MembershipStatus::Pending))
            .collect();
        answer(
            &mut m,
            page[0],
            ApiAnswer::Listing(Ok(listing_reply(pending, None, 3))),
        );
        assert_eq!(
            status(&m),
            pick(
                lang,
                "โหลดคำขอที่รอพิจารณาแล้ว 3 จาก 3 รายการ",
                "3 pending requests loaded of 3"
            )
        );
    }
}

#[test]
fn a_pasted_token_is_checked_then_refused_in_the_readers_language() {
    for lang in Lang::ALL {
        let mut m = sample_in(lang);
        update(&mut m, key('S'));
        assert!(matches!(m.popup(), Some(Popup::SignIn { .. })));
        update(&mut m, Msg::Paste("abc.def.ghi".into()));
        let fx = update(&mut m, code(KeyCode::Enter));
        assert_eq!(
            status(&m),
            pick(
                lang,
                "เข้าสู่ระบบแล้ว: กำลังตรวจโทเคน…",
                "signed in: checking the token…"
            )
        );
        let check = api_ids(&fx, |_| true);
        assert_eq!(check.len(), 1);
        let refused = ApiError::Unauthorized {
            kind: AuthErrorKind::InvalidToken,
            info: ErrorInfo {
                status: Some(401),
                detail: Some("Token expired".into()),
                ..ErrorInfo::default()
            },
        };
        answer(&mut m, check[0], ApiAnswer::User(Err(refused)));
        let want = pick(
            lang,
            "โทเคนนี้ถูกปฏิเสธ: Token expired (HTTP 401)",
            "that token was refused: Token expired (HTTP 401)",
        );
        assert_eq!(status(&m), want);
        match &m.popup() {
            Some(Popup::SignIn { error, .. }) => assert_eq!(error.as_deref(), Some(&*want)),
            other => panic!("{other:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// decisions: held, bulk, refused, lost

#[test]
fn a_held_decision_names_student_and_club_in_the_readers_language() {
    for lang in Lang::ALL {
        let mut m = loaded(
            ModelOptions {
                lang,
                decision_delay: std::time::Duration::from_secs(5),
                ..options()
            },
            sample_rows(),
        );
        update(&mut m, key('j'));
        update(&mut m, key('a'));
        assert_eq!(
            status(&m),
            pick(
                lang,
                "จะอนุมัติ สมชาย ใจดี → ชุมนุมหุ่นยนต์ ในอีก 5 วินาที · z ถอน",
                "approving Somchai Jaidee → Robotics Club in 5 s · z undo"
            )
        );
        update(&mut m, key('x'));
        assert_eq!(
            status(&m),
            pick(
                lang,
                "จะปฏิเสธ พิมพ์ชนก ใจดี → ชุมนุมหมากรุก ในอีก 5 วินาที · z ถอน (รอส่ง 2 รายการ)",
                "declining Pimchanok Jaidee → Chess Club in 5 s · z undo (2 decisions held)"
            )
        );
        let fx = update(&mut m, key('z'));
        assert_eq!(
            status(&m),
            pick(
                lang,
                "ถอนการปฏิเสธ พิมพ์ชนก ใจดี → ชุมนุมหมากรุก แล้ว: กลับไปรอพิจารณา ไม่ได้ส่งอะไรไป",
                "decline of Pimchanok Jaidee → Chess Club taken back: pending again, nothing was sent"
            )
        );
        // The log says why in the reader's language; the audit file in English.
        let entry = m.log().entries().last().expect("undone entry");
        assert_eq!(entry.outcome, Outcome::Undone);
        assert_eq!(
            entry.detail.as_deref(),
            Some(&*pick(
                lang,
                "ถอน (z) ก่อนส่ง",
                "taken back (z) before it was sent"
            ))
        );
        let audit = audits(&fx);
        assert_eq!(
            audit[0].detail.as_deref(),
            Some("taken back (z) before it was sent")
        );
    }
}

#[test]
fn a_held_bulk_decision_counts_its_requests() {
    for lang in Lang::ALL {
        let mut m = loaded(
            ModelOptions {
                lang,
                decision_delay: std::time::Duration::from_secs(5),
                ..options()
            },
            sample_rows(),
        );
        update(&mut m, key('j'));
        update(&mut m, key(' '));
        update(&mut m, key(' '));
        update(&mut m, key('a'));
        update(&mut m, key('y'));
        assert_eq!(
            status(&m),
            pick(
                lang,
                "จะอนุมัติ คำขอ 2 รายการ ในอีก 5 วินาที · z ถอน",
                "approving 2 requests in 5 s · z undo"
            )
        );
    }
}

#[test]
fn bulk_progress_and_its_summary() {
    for lang in Lang::ALL {
        let mut m = sample_in(lang);
        update(&mut m, key('j'));
        for _ in 0..3 {
            update(&mut m, key(' '));
        }
        update(&mut m, key('a'));
        let p = puts(&update(&mut m, key('y')));
        assert_eq!(p.len(), 3);
        answer(&mut m, p[0].0, approved(p[0].1));
        assert_eq!(status(&m), pick(lang, "กำลังอนุมัติ… 1/3", "approving… 1/3"));
        answer(&mut m, p[1].0, ApiAnswer::Updated(Err(TIMEOUT)));
        assert_eq!(
            status(&m),
            pick(
                lang,
                "กำลังอนุมัติ… 2/3 (ไม่ทราบผล 1 กำลังอ่านใหม่)",
                "approving… 2/3 (1 unknown, re-reading)"
            )
        );
        let refused =
            forbidden("Student must be a staff member of the club to update club requests");
        answer(&mut m, p[2].0, ApiAnswer::Updated(Err(refused)));
        assert_eq!(
            status(&m),
            pick(
                lang,
                "อนุมัติ: สำเร็จ 1 จาก 3 รายการ, ไม่สำเร็จ 1 รายการ (ยังเลือกไว้: กด a เพื่อลองใหม่), ไม่ทราบผล 1 รายการ (คำตอบหาย: กำลังอ่านใหม่)",
                "approve: 1 of 3 done, 1 failed (still marked: press a to retry), 1 unknown (answer lost: re-reading)"
            )
        );
        assert_eq!(
            error_of(&m, p[1].1),
            pick(
                lang,
                "ส่งคำสั่งอนุมัติแล้ว แต่คำตอบหาย: ยังไม่ทราบผล กำลังอ่านใหม่",
                "approve sent, answer lost: outcome unknown, re-reading"
            )
        );
        assert_eq!(
            error_of(&m, p[2].1),
            pick(
                lang,
                "ถูกปฏิเสธ: Student must be a staff member of the club to update club requests (HTTP 403)",
                "refused: Student must be a staff member of the club to update club requests (HTTP 403)"
            )
        );
    }
}

#[test]
fn a_404_on_a_decision_is_told_on_the_row_in_the_status_line_and_audited_in_english() {
    for lang in Lang::ALL {
        let mut m = sample_in(lang);
        update(&mut m, key('j'));
        let p = puts(&update(&mut m, key('a')));
        assert_eq!(
            status(&m),
            pick(
                lang,
                "กำลังอนุมัติ… สมชาย ใจดี → ชุมนุมหุ่นยนต์",
                "approving… Somchai Jaidee → Robotics Club"
            )
        );
        let fx = answer(&mut m, p[0].0, ApiAnswer::Updated(Err(not_found())));
        assert_eq!(
            status(&m),
            pick(
                lang,
                "อนุมัติ สมชาย ใจดี → ชุมนุมหุ่นยนต์ ไม่สำเร็จ: ไม่พบ: Club request not found (HTTP 404)",
                "approve Somchai Jaidee → Robotics Club failed: not found: Club request not found (HTTP 404)"
            )
        );
        assert_eq!(
            m.queue().get(id(1)).map(|i| i.state.clone()),
            Some(RowState::Gone)
        );
        assert_eq!(
            error_of(&m, id(1)),
            pick(
                lang,
                "ไม่พบ: Club request not found (HTTP 404)",
                "not found: Club request not found (HTTP 404)"
            )
        );
        let entry = m.log().entries().last().expect("log entry");
        assert_eq!(
            entry.detail.as_deref(),
            Some(&*pick(
                lang,
                "ไม่พบ: Club request not found (HTTP 404) · รหัสข้อผิดพลาด 7f3c",
                "not found: Club request not found (HTTP 404) · error id 7f3c"
            ))
        );
        assert_eq!(
            audits(&fx)[0].detail.as_deref(),
            Some("not found: Club request not found (HTTP 404) · error id 7f3c")
        );
    }
}

#[test]
fn a_404_and_a_timeout_on_reading_a_row() {
    for lang in Lang::ALL {
        let mut m = sample_in(lang);
        update(&mut m, key('j'));
        update(&mut m, key('j'));
        let fx = update(&mut m, code(KeyCode::Enter));
        assert_eq!(
            status(&m),
            pick(
                lang,
                "กำลังอ่าน พิมพ์ชนก ใจดี → ชุมนุมหมากรุก…",
                "reading Pimchanok Jaidee → Chess Club…"
            )
        );
        let get = gets(&fx, id(2));
        answer(&mut m, get[0], ApiAnswer::Request(Err(not_found())));
        assert_eq!(
            error_of(&m, id(2)),
            pick(
                lang,
                "หายไปแล้ว: ถูกลบบนเซิร์ฟเวอร์หลังจากอ่านครั้งก่อน",
                "gone: deleted on the server since it was read"
            )
        );
        update(&mut m, key('j'));
        let fx = update(&mut m, code(KeyCode::Enter));
        let get = gets(&fx, id(4));
        answer(&mut m, get[0], ApiAnswer::Request(Err(TIMEOUT)));
        let timed_out = pick(lang, "หมดเวลาหลังรอ 2.5 วินาที", "timed out after 2.5 s");
        assert_eq!(error_of(&m, id(4)), timed_out);
        assert_eq!(*m.connection(), Connection::Offline(timed_out));
        // The row's error is on the screen.
        let shown = screen(&m, 120, 40);
        assert!(
            shown.contains(&pick(lang, "หมดเวลาหลังรอ", "timed out after")),
            "{shown}"
        );
    }
}

#[test]
fn a_refusal_at_a_high_fetch_level_says_which_key_lowers_it() {
    for lang in Lang::ALL {
        // An administrator may raise the level (a student account stays at `compact`).
        let mut m = loaded_as_admin(options_in(lang), sample_rows());
        // `f`: students at `default` too; the rows are read again at that level.
        let fx = update(&mut m, key('f'));
        for (id, call) in calls(&fx) {
            assert!(matches!(call, ApiCall::ListRequests { .. }), "{call:?}");
            let rows = listing_reply(sample_rows(), None, 3);
            answer(&mut m, id, ApiAnswer::Listing(Ok(rows)));
        }
        assert!(!m.busy());
        assert_eq!(
            m.levels(),
            Levels::new(FetchLevel::Default, FetchLevel::Default)
        );
        update(&mut m, key('j'));
        let fx = update(&mut m, code(KeyCode::Enter));
        let get = gets(&fx, id(1));
        let refused = forbidden("Insufficient permissions to perform this action");
        answer(&mut m, get[0], ApiAnswer::Request(Err(refused)));
        assert_eq!(
            error_of(&m, id(1)),
            pick(
                lang,
                "ถูกปฏิเสธ: Insufficient permissions to perform this action (HTTP 403) — ที่ระดับการดึงข้อมูล ปกติ: กด F เพื่อลดระดับ",
                "refused: Insufficient permissions to perform this action (HTTP 403) — at fetch level default: press F to lower it"
            )
        );
    }
}

#[test]
fn a_lost_answer_settled_by_a_re_read() {
    for lang in Lang::ALL {
        let mut m = sample_in(lang);
        update(&mut m, key('j'));
        let p = puts(&update(&mut m, key('a')));
        let fx = answer(&mut m, p[0].0, ApiAnswer::Updated(Err(TIMEOUT)));
        assert_eq!(
            status(&m),
            pick(
                lang,
                "อนุมัติ สมชาย ใจดี → ชุมนุมหุ่นยนต์: คำตอบหาย (หมดเวลาหลังรอ 2.5 วินาที) กำลังอ่านใหม่เพื่อดูผล",
                "approve Somchai Jaidee → Robotics Club: the answer was lost (timed out after 2.5 s); re-reading to learn the outcome"
            )
        );
        assert_eq!(
            audits(&fx)[0].detail.as_deref(),
            Some("the answer was lost (timed out after 2.5 s): re-reading the request")
        );
        let get = gets(&fx, id(1));
        let read = with_status(id(1), MembershipStatus::Approved);
        let fx = answer(&mut m, get[0], ApiAnswer::Request(Ok(reply(read))));
        assert_eq!(
            status(&m),
            pick(
                lang,
                "สมชาย ใจดี → ชุมนุมหุ่นยนต์: อนุมัติแล้ว (อ่านใหม่หลังคำตอบหาย)",
                "Somchai Jaidee → Robotics Club: approved (re-read after the answer was lost)"
            )
        );
        let entry = m.log().entries().last().expect("settled entry");
        assert_eq!(
            entry.detail.as_deref(),
            Some(&*pick(
                lang,
                "ทราบผลจากการอ่านใหม่ (คำตอบเคยหาย: หมดเวลาหลังรอ 2.5 วินาที): อนุมัติแล้ว",
                "settled by a re-read (its answer had been lost: timed out after 2.5 s): approved"
            ))
        );
        assert_eq!(
            audits(&fx)[0].detail.as_deref(),
            Some(
                "settled by a re-read (its answer had been lost: timed out after 2.5 s): approved"
            )
        );
    }
}

#[test]
fn mark_all_names_the_one_club_in_the_readers_language() {
    for lang in Lang::ALL {
        let mut m = sample_in(lang);
        update(&mut m, key('/'));
        typed(&mut m, "club:robotics_club");
        update(&mut m, code(KeyCode::Enter));
        assert_eq!(m.queue().filter(), "club:robotics_club");
        update(&mut m, key('*'));
        assert_eq!(
            status(&m),
            pick(
                lang,
                "เลือกแล้ว 2 รายการ: คำขอที่รอพิจารณาทั้งหมดของ ชุมนุมหุ่นยนต์ ที่ตรงกับตัวกรอง",
                "2 marked: every pending request of Robotics Club matching the filter"
            )
        );
        update(&mut m, key('u'));
        assert_eq!(
            status(&m),
            pick(lang, "ยกเลิกการเลือกทั้งหมดแล้ว", "marks cleared")
        );
    }
}

// ---------------------------------------------------------------------------------------
// the : command line

/// Runs `:text` through the command-line pop-up.
fn command(m: &mut Model, text: &str) -> Vec<Effect> {
    update(m, key(':'));
    assert!(
        matches!(m.popup(), Some(Popup::Command { .. })),
        "{:?}",
        m.popup()
    );
    typed(m, text);
    update(m, code(KeyCode::Enter))
}

#[test]
fn command_answers_and_errors() {
    for lang in Lang::ALL {
        let mut m = sample_in(lang);
        let cases = [
            ("sort club", "เรียงตาม: ชุมนุม", "sorted: club"),
            (
                "sort size",
                "sort ใช้ได้กับ age, club, status หรือ server",
                "sort takes age, club, status or server",
            ),
            (
                "level nope",
                "ไม่รู้จักระดับการดึงข้อมูล \"nope\": ใช้ id_only, compact, default หรือ detailed",
                "unknown fetch level \"nope\": use id_only, compact, default or detailed",
            ),
            (
                "level compact id_only",
                "ระดับการดึงข้อมูลคำขอ ย่อ / ระดับย่อย เฉพาะรหัส",
                "request fetch level compact / descendants id_only",
            ),
            (
                "log",
                "แสดงบันทึกกิจกรรมแล้ว (กด L หรือ :log เพื่อซ่อน)",
                "activity log shown (L or :log hides it)",
            ),
            ("mouse on", "เปิดเมาส์แล้ว", "mouse on"),
            (
                "scope nowhere",
                "ไม่รู้จักชุมนุมชื่อ \"nowhere\" ที่นี่ (:club nowhere ค้นหาได้ และ :scope รับรหัสชุมนุมด้วย)",
                "no club known here is named \"nowhere\" (:club nowhere looks it up; :scope takes its id too)",
            ),
        ];
        for (text, thai, english) in cases {
            command(&mut m, text);
            assert_eq!(status(&m), pick(lang, thai, english), ":{text}");
        }
        command(&mut m, "frobnicate");
        let s = status(&m);
        let start = pick(
            lang,
            "ไม่รู้จักคำสั่ง \"frobnicate\": ลอง add, club,",
            "unknown command \"frobnicate\": try add, club,",
        );
        assert!(s.starts_with(&start), "{s}");
    }
}

#[test]
fn every_command_has_its_help_text_in_both_languages() {
    let en = club_admin::app::update::command_help(Lang::English);
    let th = club_admin::app::update::command_help(Lang::Thai);
    assert_eq!(en.len(), club_admin::app::update::COMMANDS.len());
    for ((usage, e), t) in club_admin::app::update::COMMANDS.iter().zip(&en).zip(&th) {
        assert!(e.starts_with(&format!("{usage} — ")), "{e}");
        let name = usage.split_whitespace().next().unwrap_or_default();
        assert!(t.starts_with(&format!("{name} ")), "{t}");
        assert!(
            t.chars().any(|c| ('\u{0e00}'..='\u{0e7f}').contains(&c)),
            "{t}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// the activity log pane

/// The activity log pane's lines of a 120x40 frame (its block, top to bottom border).
fn log_pane(m: &Model) -> String {
    let s = screen(m, 120, 40);
    let lines: Vec<&str> = s.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.starts_with("┌ Activity") || l.starts_with("┌ กิจกรรม"))
        .expect("the log pane is drawn");
    let end = lines[top + 1..]
        .iter()
        .position(|l| l.starts_with('└'))
        .map(|p| top + 1 + p)
        .expect("its bottom border");
    lines[top..=end].join("\n")
}

#[test]
fn the_log_pane_in_both_languages() {
    for lang in Lang::ALL {
        let mut m = sample_in(lang);
        update(&mut m, key('L'));
        update(&mut m, key('j'));
        let p = puts(&update(&mut m, key('a')));
        let refused =
            forbidden("Student must be a staff member of the club to update club requests");
        answer(&mut m, p[0].0, ApiAnswer::Updated(Err(refused)));
        let pane = log_pane(&m);
        let words = match lang {
            Lang::Thai => [
                "กิจกรรม (2)",
                "เข้าสู่ระบบแล้ว",
                "สำเร็จ",
                "สมชาย ใจดี → ชุมนุมหุ่นยนต์",
                "ไม่สำเร็จ: ถูกปฏิเสธ: Student must be a staff",
            ],
            Lang::English => [
                "Activity (2)",
                "signed in",
                " ok",
                "Somchai Jaidee → Robotics Club",
                "failed: refused: Student must be a staff",
            ],
        };
        for w in words {
            assert!(pane.contains(&pick(lang, w, w)), "{w:?} in\n{pane}");
        }
        insta::assert_snapshot!(format!("log_pane_{}", lang.code()), pane);
    }
}

#[test]
fn the_log_pane_empty_and_with_earlier_sessions() {
    for lang in Lang::ALL {
        let mut m = model_from(ModelOptions { lang, ..options() });
        update(&mut m, key('L'));
        let pane = log_pane(&m);
        assert!(
            pane.contains(&pick(
                lang,
                "ยังไม่มีกิจกรรมในรอบนี้",
                "nothing done yet in this session"
            )),
            "{pane}"
        );
        let earlier = AuditEntry {
            at: now() - chrono::Duration::days(1),
            server: m.server_key().to_owned(),
            user: None,
            action: "decline".into(),
            target: id(9),
            outcome: Outcome::Unknown,
            detail: None,
            value: None,
            via: Some("dashboard".into()),
            key: None,
            run: None,
            session: None,
            carried: None,
            settled_by: None,
            label: None,
            key_comment: None,
        };
        update(&mut m, Msg::History(vec![earlier]));
        let pane = log_pane(&m);
        for w in [
            pick(lang, "ปฏิเสธ", "decline"),
            pick(lang, "(รอบก่อน)", "(earlier session)"),
            pick(
                lang,
                "ไม่ทราบผล: ไม่ได้รับคำตอบ",
                "outcome unknown: no answer seen",
            ),
        ] {
            assert!(pane.contains(&w), "{w:?} in\n{pane}");
        }
    }
}

#[test]
fn start_up_warnings_id_origins_and_local_failures_in_the_readers_language() {
    use club_admin::app::{IdsFrom, LocalEffect};
    use club_admin::config::{ReadableSecret, SecretFile};
    for lang in Lang::ALL {
        let mut m = model_with_lang(sample_rows(), lang);
        update(
            &mut m,
            Msg::Warning(ReadableSecret {
                file: SecretFile::Token,
                path: "/home/t/.local/state/club-admin/token".into(),
                mode: 0o644,
            }),
        );
        assert_eq!(
            status(&m),
            pick(
                lang,
                "คำเตือน: ไฟล์โทเคน /home/t/.local/state/club-admin/token ผู้ใช้อื่นอ่านได้ (สิทธิ์ 644): สั่ง chmod 600 /home/t/.local/state/club-admin/token เพื่อให้อ่านได้เฉพาะคุณ",
                "warning: the token file /home/t/.local/state/club-admin/token can be read by other users (mode 644): run chmod 600 /home/t/.local/state/club-admin/token so that only you can read it",
            )
        );
        update(
            &mut m,
            Msg::AddIds {
                text: id(77).to_string(),
                origin: IdsFrom::Stdin,
            },
        );
        assert_eq!(
            status(&m),
            pick(
                lang,
                "เพิ่มรหัสคำขอ 1 รายการจาก อินพุตมาตรฐาน",
                "added 1 request id from standard input",
            )
        );
        update(
            &mut m,
            Msg::EffectFailed {
                what: LocalEffect::SavingQueue,
                error: "No space left on device (os error 28)".into(),
            },
        );
        assert!(
            status(&m).starts_with(&pick(lang, "การบันทึกคิว ไม่สำเร็จ", "saving the queue failed")),
            "{}",
            status(&m)
        );
    }
}

#[test]
fn a_held_decision_due_while_the_quit_question_is_open_waits_for_the_answer() {
    for lang in Lang::ALL {
        let mut m = loaded(
            ModelOptions {
                lang,
                decision_delay: std::time::Duration::from_secs(5),
                ..options()
            },
            sample_rows(),
        );
        update(&mut m, key('j'));
        update(&mut m, key('a'));
        update(&mut m, key('q'));
        assert!(
            matches!(m.popup(), Some(Popup::QuitHeld)),
            "{:?}",
            m.popup()
        );
        let later = m.now() + chrono::Duration::seconds(6);
        update(&mut m, Msg::Tick(later));
        let text = status(&m);
        assert!(
            text.contains(&pick(lang, "รอคำตอบของคุณก่อน", ", waiting for your answer")),
            "{text}"
        );
        assert!(!text.contains(" 0 "), "no countdown at zero: {text}");
    }
}

#[test]
fn thai_typed_into_a_refusal_is_shown_as_typed_not_escaped() {
    let mut m = model_with_lang(sample_rows(), Lang::Thai);
    update(&mut m, key(':'));
    typed(&mut m, "คำสั่งไทย");
    update(&mut m, code(KeyCode::Enter));
    let text = status(&m);
    assert!(
        text.contains(&pick(Lang::Thai, "\"คำสั่งไทย\"", "")),
        "{text}"
    );
    assert!(!text.contains("\\u{"), "no Rust escapes: {text}");
}

#[test]
fn a_due_held_row_shows_no_zero_countdown_and_thai_level_names_are_understood() {
    for lang in Lang::ALL {
        let mut m = loaded(
            ModelOptions {
                lang,
                decision_delay: std::time::Duration::from_secs(5),
                ..options()
            },
            sample_rows(),
        );
        update(&mut m, key('j'));
        update(&mut m, key('a'));
        update(&mut m, key('q'));
        let later = m.now() + chrono::Duration::seconds(6);
        update(&mut m, Msg::Tick(later));
        let s = screen(&m, 120, 40);
        assert!(!s.contains(&pick(lang, "อนุมัติ 0 วิ", "approving 0 s")), "{s}");
        // Held by the quit question, not sent: "held", never "approving…".
        assert!(!s.contains(&pick(lang, "กำลังอนุมัติ…", "approving…")), "{s}");
        assert!(s.contains(&pick(lang, "พักอนุมัติ", "approve held")), "{s}");
    }
    let mut m = model_with_lang(sample_rows(), Lang::Thai);
    update(&mut m, key(':'));
    typed(&mut m, "level ละเอียด");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(
        m.levels().fetch_level,
        FetchLevel::Detailed,
        "{}",
        status(&m)
    );
}

#[test]
fn a_refresh_whose_reads_fail_does_not_say_refreshed() {
    let dropped = || ApiError::Connect {
        failure: ConnectFailure::ClosedWithoutAnswer,
        host: "127.0.0.1:9".into(),
        cause: None,
    };
    // Answers every read among `fx` with a dropped connection, and what those answers ask.
    let fail_all = |m: &mut Model, mut fx: Vec<Effect>| {
        for _ in 0..10 {
            let calls: Vec<(u64, ApiCall)> = fx
                .iter()
                .filter_map(|e| match e {
                    Effect::Api {
                        request_id, call, ..
                    } => Some((*request_id, call.clone())),
                    _ => None,
                })
                .collect();
            fx = Vec::new();
            for (id, call) in calls {
                let a = match call {
                    ApiCall::CurrentUser => ApiAnswer::User(Err(dropped())),
                    ApiCall::ListRequests { .. } => ApiAnswer::Listing(Err(dropped())),
                    ApiCall::GetRequest { .. } => ApiAnswer::Request(Err(dropped())),
                    ApiCall::ProbeUpdateRoute => ApiAnswer::UpdateRoute(Err(dropped())),
                    other => panic!("unexpected call {other:?}"),
                };
                fx.extend(answer(m, id, a));
            }
        }
    };
    for lang in Lang::ALL {
        // The server cannot be reached from the start (the user was never read), then `r`.
        let mut m = model_from(ModelOptions { lang, ..options() });
        let fx = club_admin::app::start(&mut m);
        fail_all(&mut m, fx);
        let fx = update(&mut m, key('r'));
        fail_all(&mut m, fx);
        let text = status(&m);
        assert!(!text.ends_with('…'), "the refresh ended: {text}");
        assert_ne!(text, pick(lang, "โหลดใหม่แล้ว", "refreshed"), "{text}");
    }
}
