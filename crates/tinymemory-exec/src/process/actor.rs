//! The thread that owns one driver process.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use tinymemory_api::MemoryError;
use tokio::sync::{mpsc, watch};

use super::session::Session;
use super::{Job, Reply, Shared};
use crate::{ExecCommand, ExecConfig};

/// Starts the actor thread; it ends when every [`Connection`](super::Connection)
/// sender is gone, after closing the process's stdin.
pub(super) fn spawn(
    command: ExecCommand,
    config: ExecConfig,
    jobs: mpsc::UnboundedReceiver<Job>,
    shared: Arc<Shared>,
    abort: watch::Receiver<bool>,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("tinymemory-exec".to_owned())
        .spawn(move || {
            match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime.block_on(serve(command, config, jobs, shared, abort)),
                Err(e) => {
                    let reason =
                        format!("failed to start `{command}`: failed to build its runtime: {e}");
                    refuse_all_blocking(jobs, &shared, &reason);
                }
            }
        })
        .map(drop)
}

async fn serve(
    command: ExecCommand,
    config: ExecConfig,
    mut jobs: mpsc::UnboundedReceiver<Job>,
    shared: Arc<Shared>,
    abort: watch::Receiver<bool>,
) {
    let mut session = match Session::spawn(&command, config, Arc::clone(&shared), abort) {
        Ok(s) => s,
        Err(reason) => {
            shared.dead.store(true, Ordering::Release);
            while let Some(job) = jobs.recv().await {
                answered(&shared, job.reply, Err(MemoryError::fault(reason.clone())));
            }
            return;
        }
    };
    let mut next_id = 1u64;
    while let Some(Job { request, reply }) = jobs.recv().await {
        let answer = session.exchange(next_id, request).await;
        next_id += 1;
        answered(&shared, reply, answer);
    }
    session.shutdown().await;
}

/// Counts the request as answered, then sends `answer` to the caller (if
/// it still waits): in that order, so a caller that got its answer never
/// sees its own request as pending.
fn answered(shared: &Shared, reply: Reply, answer: Result<serde_json::Value, MemoryError>) {
    shared.pending.fetch_sub(1, Ordering::AcqRel);
    reply.send(answer);
}

fn refuse_all_blocking(mut jobs: mpsc::UnboundedReceiver<Job>, shared: &Shared, reason: &str) {
    shared.dead.store(true, Ordering::Release);
    while let Some(job) = jobs.blocking_recv() {
        answered(
            shared,
            job.reply,
            Err(MemoryError::fault(reason.to_owned())),
        );
    }
}
