//! The log's lines, gathered in memory and written to their output in
//! batches by a thread of its own.
//!
//! A request logs one line. Handing each line to a writer thread through a
//! channel (`tracing-appender`) wakes that thread for nearly every line and
//! makes a `write` for each: a fifth of a health check's CPU in a profile.
//! Here a line is appended to a shared buffer under a lock, and the thread
//! writes what has gathered every [`FLUSH_EVERY`], or sooner once
//! [`WAKE_AT`] bytes wait. No line is dropped: past [`MAX_WAITING`] bytes
//! (the output is not being read) the logging thread waits for room.

use std::io::Write;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tracing_subscriber::fmt::MakeWriter;

/// The longest a line waits before it is written.
pub const FLUSH_EVERY: Duration = Duration::from_millis(50);
/// The writer is woken early once this much waits.
pub const WAKE_AT: usize = 256 * 1024;
/// A logging thread waits for room beyond this.
pub const MAX_WAITING: usize = 8 * 1024 * 1024;

#[derive(Default)]
struct Waiting {
    bytes: Vec<u8>,
    closed: bool,
}

#[derive(Default)]
struct Shared {
    waiting: Mutex<Waiting>,
    /// the writer's signal: much waits, or the log is closing
    more: Condvar,
    /// the loggers' signal: the buffer was taken
    room: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Waiting> {
        // a thread that panicked while holding the lock left whole lines behind
        self.waiting.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The `MakeWriter` for the log layer.
#[derive(Clone)]
pub struct BatchedWriter {
    shared: Arc<Shared>,
}

/// Writes what is left and stops the writer thread when dropped.
pub struct FlushGuard {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

/// Starts the writer thread over `output`.
pub fn batched<W: Write + Send + 'static>(mut output: W) -> std::io::Result<(BatchedWriter, FlushGuard)> {
    let shared = Arc::new(Shared::default());
    let theirs = shared.clone();
    let thread = std::thread::Builder::new().name("log-writer".into()).spawn(move || loop {
        let (bytes, closed) = {
            let mut waiting = theirs.lock();
            let deadline = Instant::now() + FLUSH_EVERY;
            while waiting.bytes.len() < WAKE_AT && !waiting.closed {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    break;
                }
                waiting = theirs.more.wait_timeout(waiting, left).map(|(w, _)| w).unwrap_or_else(|p| p.into_inner().0);
            }
            let bytes = std::mem::take(&mut waiting.bytes);
            theirs.room.notify_all();
            (bytes, waiting.closed)
        };
        if !bytes.is_empty() {
            // a log that cannot be written is not a reason to stop serving
            let _ = output.write_all(&bytes).and_then(|()| output.flush());
        }
        if closed && theirs.lock().bytes.is_empty() {
            return;
        }
    })?;
    Ok((BatchedWriter { shared: shared.clone() }, FlushGuard { shared, thread: Some(thread) }))
}

impl Drop for FlushGuard {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.more.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// One event's writer: the formatter writes its whole line through it.
pub struct LineWriter {
    shared: Arc<Shared>,
}

impl Write for LineWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut waiting = self.shared.lock();
        while waiting.bytes.len() >= MAX_WAITING && !waiting.closed {
            waiting = self.shared.room.wait(waiting).unwrap_or_else(|p| p.into_inner());
        }
        waiting.bytes.extend_from_slice(buf);
        if waiting.bytes.len() >= WAKE_AT {
            self.shared.more.notify_one();
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for BatchedWriter {
    type Writer = LineWriter;
    fn make_writer(&'a self) -> LineWriter {
        LineWriter { shared: self.shared.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An output that records each write it is given.
    #[derive(Clone, Default)]
    struct Recorder(Arc<Mutex<Vec<Vec<u8>>>>);
    impl Write for Recorder {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_line_arrives_in_order_and_lines_are_written_together() {
        let output = Recorder::default();
        let (writer, guard) = batched(output.clone()).unwrap();
        for i in 0..1000 {
            writer.make_writer().write_all(format!("line {i}\n").as_bytes()).unwrap();
        }
        drop(guard);
        let writes = output.0.lock().unwrap();
        let text: String = writes.iter().map(|w| String::from_utf8_lossy(w).into_owned()).collect();
        let expected: String = (0..1000).map(|i| format!("line {i}\n")).collect();
        assert_eq!(text, expected, "a line lost, doubled or out of order");
        assert!(writes.len() < 100, "{} writes for 1000 lines: not batched", writes.len());
    }

    #[test]
    fn a_line_is_written_within_the_period_without_a_flush() {
        let output = Recorder::default();
        let (writer, _guard) = batched(output.clone()).unwrap();
        writer.make_writer().write_all(b"alone\n").unwrap();
        let deadline = std::time::Instant::now() + FLUSH_EVERY * 40;
        while output.0.lock().unwrap().is_empty() {
            assert!(std::time::Instant::now() < deadline, "a lone line was never written");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(output.0.lock().unwrap().concat(), b"alone\n");
    }

    #[test]
    fn lines_from_many_threads_are_never_interleaved() {
        let output = Recorder::default();
        let (writer, guard) = batched(output.clone()).unwrap();
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let writer = writer.clone();
                std::thread::spawn(move || {
                    for i in 0..500 {
                        writer.make_writer().write_all(format!("thread {t} line {i} {}\n", "x".repeat(100)).as_bytes()).unwrap();
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        drop(guard);
        let text = String::from_utf8(output.0.lock().unwrap().concat()).unwrap();
        assert_eq!(text.lines().count(), 2000);
        for t in 0..4 {
            let numbers: Vec<usize> = text
                .lines()
                .filter_map(|l| l.strip_prefix(&format!("thread {t} line ")))
                .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
                .collect();
            assert_eq!(numbers, (0..500).collect::<Vec<_>>(), "thread {t}'s lines lost or reordered");
        }
    }
}
