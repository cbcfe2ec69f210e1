//! Another user of the service, for the harnesses of many moderators at once: it reads
//! `/auth/user` every 100 ms while they run, and tells its worst wait.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use club_admin::api::ApiClient;

/// The reading client, running until [`Reader::stop`].
pub struct Reader {
    stop: Arc<AtomicBool>,
    worst: Arc<AtomicU64>,
    reads: tokio::task::JoinHandle<()>,
}

impl Reader {
    /// Starts reading with `client` (on the current Tokio runtime).
    pub fn start(client: ApiClient) -> Reader {
        let stop = Arc::new(AtomicBool::new(false));
        let worst = Arc::new(AtomicU64::new(0));
        let (stop2, worst2) = (stop.clone(), worst.clone());
        let reads = tokio::spawn(async move {
            while !stop2.load(Ordering::Relaxed) {
                let t = Instant::now();
                let _ = client.current_user().await;
                worst2.fetch_max(t.elapsed().as_millis() as u64, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        });
        Reader { stop, worst, reads }
    }

    /// Stops reading; the longest a read waited.
    pub async fn stop(self) -> Duration {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.reads.await;
        Duration::from_millis(self.worst.load(Ordering::Relaxed))
    }
}
