//! The deadline: a thread that answers for the hook when its work has not answered in time.
//!
//! The watchdog starts before the hook reads stdin. What it does at the deadline depends on how
//! far the hook got:
//! - still reading stdin: after a grace ([`STDIN_GRACE`], for a hook the machine was slow to
//!   schedule) it answers the no-op answer, since the harness never finished delivering;
//! - payload read, event not yet redacted: it hands the payload to a process of its own
//!   ([`crate::Process::hand_off`]), which journals it, and answers the no-op answer;
//! - event ready: it journals the event and answers that event's pass answer;
//! - event of a session that is not recorded ([`crate::capture`]): it answers the pass answer.
//!
//! Whichever answers first, the work or the watchdog, is the only one that answers.

use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use memory_core::HookEvent;

/// How long past the deadline the watchdog waits for a read of stdin to finish. A harness writes
/// its payload at once (it fits in the pipe) and closes stdin, so a read still under way at the
/// deadline almost always means this process was not given the CPU to do it (a loaded machine):
/// waiting keeps the event. Only a harness that never closes stdin pays the wait, once.
pub(crate) const STDIN_GRACE: Duration = Duration::from_millis(1000);

/// How far the hook got.
#[derive(Debug, Clone)]
pub(crate) enum Stage {
    /// Reading stdin.
    Reading,
    /// The payload is read (at the given time); parsing and redaction are under way.
    Read(Arc<Vec<u8>>, DateTime<Utc>),
    /// The event is redacted and filed: it can be journaled as it is.
    Ready(Arc<HookEvent>),
    /// The event belongs to a session that is not recorded (it is only given notes): the
    /// watchdog answers its pass answer and keeps nothing.
    Unrecorded(memory_core::EventKind),
}

#[derive(Debug)]
struct State {
    deadline: Instant,
    stage: Stage,
    answered: bool,
}

/// What the work and the watchdog share.
#[derive(Debug)]
pub(crate) struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    pub(crate) fn new(deadline: Instant) -> Self {
        Self {
            state: Mutex::new(State { deadline, stage: Stage::Reading, answered: false }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Moves the deadline (an event that injects gets a longer one).
    pub(crate) fn set_deadline(&self, deadline: Instant) {
        self.lock().deadline = deadline;
        self.changed.notify_all();
    }

    pub(crate) fn set_stage(&self, stage: Stage) {
        self.lock().stage = stage;
        self.changed.notify_all();
    }

    /// Claims the answer for the work: `false` when the watchdog answered already.
    pub(crate) fn claim(&self) -> bool {
        let mut state = self.lock();
        let first = !state.answered;
        state.answered = true;
        drop(state);
        self.changed.notify_all();
        first
    }

    /// Waits until the deadline (then claims the answer and returns the stage it caught) or until
    /// the work answered (then `None`).
    pub(crate) fn wait(&self) -> Option<Stage> {
        let mut state = self.lock();
        loop {
            if state.answered {
                return None;
            }
            let now = Instant::now();
            let reading = matches!(state.stage, Stage::Reading);
            let due = if reading { state.deadline + STDIN_GRACE } else { state.deadline };
            if now >= due {
                state.answered = true;
                return Some(state.stage.clone());
            }
            // While stdin is read the deadline is checked at its time, and again at the grace's end.
            let left = if reading && now < state.deadline { state.deadline - now } else { due - now };
            state = self
                .changed
                .wait_timeout(state, left.min(Duration::from_secs(3600)))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}
