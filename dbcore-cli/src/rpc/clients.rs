//! Who is asking: the frame a client declared at `hello`, kept for that client only.
//!
//! * Over stdio the stream is one client: a [`Client`] lives as long as the stream, and the frame
//!   declared at `hello` is the frame of the battles it creates from then on.
//! * Over HTTP every request stands alone (a table tool may open a new connection for each), so a
//!   request's [`Client`] is fresh and in the `bw` frame. `hello` answers a `client` token; a
//!   request that creates a battle or draws a set-up and carries `"client": token` is in the frame
//!   that token's `hello` declared. One client's `hello` never changes another's frame.
//!
//! The server keeps the frames of the last [`MAX_CLIENTS`] tokens; an older token is refused
//! (invalid params, pointing at `client`): the client says `hello` again.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Mutex;

use serde_json::Value;

use super::RpcError;
use crate::frame::Frame;

/// Tokens remembered at once; the oldest is forgotten first.
pub const MAX_CLIENTS: usize = 4096;

/// One client's context, held by the door: over stdio the stream's, over HTTP the request's.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Client {
    /// The frame of the battles this client creates when it names none.
    pub frame: Frame,
}

/// The frames of the `hello` tokens.
#[derive(Debug, Default)]
pub struct Clients {
    inner: Mutex<Tokens>,
}

#[derive(Debug, Default)]
struct Tokens {
    frames: BTreeMap<String, Frame>,
    order: VecDeque<String>,
    next: u64,
}

impl Clients {
    /// A new token for `frame`.
    pub fn register(&self, frame: Frame) -> String {
        let mut t = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        t.next += 1;
        let token = format!("c{}", t.next);
        if t.order.len() >= MAX_CLIENTS {
            if let Some(old) = t.order.pop_front() {
                t.frames.remove(&old);
            }
        }
        t.order.push_back(token.clone());
        t.frames.insert(token.clone(), frame);
        token
    }

    /// The frame of token `v` (the `client` parameter).
    pub fn frame(&self, v: &Value) -> Result<Frame, RpcError> {
        let Some(token) = v.as_str() else {
            return Err(RpcError::params(
                "/params/client",
                "`client` is the token `hello` answered",
            ));
        };
        let t = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        t.frames.get(token).copied().ok_or_else(|| {
            RpcError::params(
                "/params/client",
                format!(
                    "no client `{}` (unknown or forgotten): say `hello` again",
                    dbcore::limits::quote(token)
                ),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::Preset;

    #[test]
    fn the_oldest_token_is_forgotten_past_the_limit() {
        let clients = Clients::default();
        let tts = Frame {
            preset: Preset::Tts,
            units_per_bw: None,
        };
        let first = clients.register(tts);
        assert_eq!(clients.frame(&Value::from(first.clone())).unwrap(), tts);
        let mut last = String::new();
        for _ in 0..MAX_CLIENTS {
            last = clients.register(Frame::default());
        }
        let e = clients.frame(&Value::from(first)).unwrap_err();
        assert!(e.message.contains("say `hello` again"), "{}", e.message);
        assert_eq!(clients.frame(&Value::from(last)).unwrap(), Frame::default());
        assert!(clients.frame(&Value::from(7)).is_err());
    }
}
