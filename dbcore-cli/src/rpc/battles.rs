//! The live battles: a table locked only to find, add or remove a battle, and a lock per battle,
//! so that requests on different battles run at once and a slow request holds up only its own.
//!
//! A request takes its battle out of its cell for as long as it runs (a [`Lease`]); another
//! request on the same battle waits for it at most [`super::Limits::busy_wait`], then is told
//! the battle is busy ([`super::BATTLE_BUSY`]). A request that panics never gives its battle
//! back: the battle is closed (dropped from the table) as the panic unwinds, since its state may
//! be half changed, and every other battle goes on.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::json;

use super::session::Session;
use super::{unknown_battle, RpcError, BATTLE_BUSY, LIMIT_REACHED};

/// One battle's place: the session when no request holds it.
#[derive(Debug)]
struct Cell {
    state: Mutex<CellState>,
    /// Signalled when the session is given back or the battle closed.
    freed: Condvar,
    /// The revision when the session was last given back, for `battles.list` (which must not
    /// wait for a busy battle).
    revision: AtomicU64,
}

#[derive(Debug)]
struct CellState {
    /// `None` while a request holds the session.
    session: Option<Box<Session>>,
    closed: bool,
}

#[derive(Debug, Default)]
struct Table {
    cells: BTreeMap<String, Arc<Cell>>,
    next_id: u64,
}

/// The live battles.
#[derive(Debug, Default)]
pub struct Battles {
    table: Mutex<Table>,
}

thread_local! {
    /// The battle closed by the panic unwinding on this thread, for the error answered to the
    /// request that panicked.
    static CLOSED_BY_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The battle that the last panic on this thread closed, if any (and forget it).
pub fn take_closed_by_panic() -> Option<String> {
    CLOSED_BY_PANIC.with(|c| c.borrow_mut().take())
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // No lock here is held while dbcore runs, so none is poisoned by a rules panic; should one
    // be, its data (a map, a slot) is still whole.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Battles {
    /// Battles alive.
    pub fn len(&self) -> usize {
        lock(&self.table).cells.len()
    }

    /// Add a battle unless `max` are alive: its id.
    pub fn insert(&self, session: Session, max: usize) -> Result<String, RpcError> {
        let mut t = lock(&self.table);
        if t.cells.len() >= max {
            return Err(full(max));
        }
        t.next_id += 1;
        let id = format!("b{}", t.next_id);
        let cell = Cell {
            revision: AtomicU64::new(session.revision()),
            state: Mutex::new(CellState {
                session: Some(Box::new(session)),
                closed: false,
            }),
            freed: Condvar::new(),
        };
        t.cells.insert(id.clone(), Arc::new(cell));
        Ok(id)
    }

    /// Whether another battle may be added now (checked again when it is added).
    pub fn has_room(&self, max: usize) -> Result<(), RpcError> {
        if self.len() >= max {
            return Err(full(max));
        }
        Ok(())
    }

    /// Every battle and its revision, by id.
    pub fn list(&self) -> Vec<(String, u64)> {
        lock(&self.table)
            .cells
            .iter()
            .map(|(id, c)| (id.clone(), c.revision.load(Ordering::Acquire)))
            .collect()
    }

    /// Close battle `id`. A request running on it finishes; its answer is the last.
    pub fn close(&self, id: &str) -> Result<(), RpcError> {
        let cell = lock(&self.table)
            .cells
            .remove(id)
            .ok_or_else(|| unknown_battle(id))?;
        let mut st = lock(&cell.state);
        st.closed = true;
        st.session = None;
        cell.freed.notify_all();
        Ok(())
    }

    /// Take battle `id` for one request, waiting at most `wait` for another request on it.
    pub fn lease(&self, id: &str, wait: Duration) -> Result<Lease<'_>, RpcError> {
        let cell = lock(&self.table)
            .cells
            .get(id)
            .cloned()
            .ok_or_else(|| unknown_battle(id))?;
        let deadline = Instant::now() + wait;
        let mut st = lock(&cell.state);
        loop {
            if st.closed {
                return Err(unknown_battle(id));
            }
            if let Some(session) = st.session.take() {
                drop(st);
                return Ok(Lease {
                    battles: self,
                    id: id.to_string(),
                    cell,
                    session: Some(session),
                });
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(RpcError::new(
                    BATTLE_BUSY,
                    format!(
                        "battle `{id}` is busy with another request (waited {} ms): try again",
                        wait.as_millis()
                    ),
                )
                .with(json!({ "battle": id, "waited_ms": wait.as_millis() as u64 })));
            }
            st = cell
                .freed
                .wait_timeout(st, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }

    /// Drop battle `id` from the table if `cell` is still its cell.
    fn forget(&self, id: &str, cell: &Arc<Cell>) {
        let mut t = lock(&self.table);
        if t.cells.get(id).is_some_and(|c| Arc::ptr_eq(c, cell)) {
            t.cells.remove(id);
        }
    }
}

fn full(max: usize) -> RpcError {
    RpcError::new(
        LIMIT_REACHED,
        format!("at most {max} battles may be open at once: close one"),
    )
    .with(json!({ "max_battles": max }))
}

/// One request's hold on a battle: the session, given back when the request ends, or dropped
/// with its battle when the request panics.
pub struct Lease<'a> {
    battles: &'a Battles,
    id: String,
    cell: Arc<Cell>,
    session: Option<Box<Session>>,
}

impl Deref for Lease<'_> {
    type Target = Session;
    fn deref(&self) -> &Session {
        self.session
            .as_deref()
            .expect("a lease holds its session until dropped")
    }
}

impl DerefMut for Lease<'_> {
    fn deref_mut(&mut self) -> &mut Session {
        self.session
            .as_deref_mut()
            .expect("a lease holds its session until dropped")
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        let Some(session) = self.session.take() else {
            return;
        };
        if std::thread::panicking() {
            // The state may be half changed: the battle ends here, and nobody waits for it.
            drop(session);
            let mut st = lock(&self.cell.state);
            st.closed = true;
            self.cell.freed.notify_all();
            drop(st);
            self.battles.forget(&self.id, &self.cell);
            let id = self.id.clone();
            CLOSED_BY_PANIC.with(|c| *c.borrow_mut() = Some(id));
            return;
        }
        self.cell
            .revision
            .store(session.revision(), Ordering::Release);
        let mut st = lock(&self.cell.state);
        if !st.closed {
            st.session = Some(session);
        }
        self.cell.freed.notify_one();
    }
}
