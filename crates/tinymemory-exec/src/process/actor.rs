//! The thread that owns one driver process.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tinymemory_api::MemoryError;
use tokio::sync::mpsc;

use super::session::Session;
use super::Job;
use crate::{ExecCommand, ExecConfig};

/// Starts the actor thread; it ends when every [`Connection`](super::Connection)
/// sender is gone, after closing the process's stdin.
pub(super) fn spawn(
    command: ExecCommand,
    config: ExecConfig,
    jobs: mpsc::UnboundedReceiver<Job>,
    dead: Arc<AtomicBool>,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("tinymemory-exec".to_owned())
        .spawn(move || {
            match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime.block_on(serve(command, config, jobs, dead)),
                Err(e) => {
                    let reason =
                        format!("failed to start `{command}`: failed to build its runtime: {e}");
                    refuse_all_blocking(jobs, &dead, &reason);
                }
            }
        })
        .map(drop)
}

async fn serve(
    command: ExecCommand,
    config: ExecConfig,
    mut jobs: mpsc::UnboundedReceiver<Job>,
    dead: Arc<AtomicBool>,
) {
    let mut session = match Session::spawn(&command, config, Arc::clone(&dead)) {
        Ok(s) => s,
        Err(reason) => {
            dead.store(true, Ordering::Release);
            while let Some(job) = jobs.recv().await {
                job.reply.send(Err(MemoryError::fault(reason.clone())));
            }
            return;
        }
    };
    let mut next_id = 1u64;
    while let Some(job) = jobs.recv().await {
        let answer = session.exchange(next_id, job.request).await;
        next_id += 1;
        job.reply.send(answer);
    }
    session.shutdown().await;
}

fn refuse_all_blocking(mut jobs: mpsc::UnboundedReceiver<Job>, dead: &AtomicBool, reason: &str) {
    dead.store(true, Ordering::Release);
    while let Some(job) = jobs.blocking_recv() {
        job.reply.send(Err(MemoryError::fault(reason.to_owned())));
    }
}
