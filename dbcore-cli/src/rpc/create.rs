//! Starting a battle: `battle.create` (a set-up, two army lists or a pre-battle set-up, or a
//! demonstration) and `battle.import` (a game record in any spelling, or a saved state). Every
//! battle is a [`surface::Session`]; what is done here is the protocol's part: the client's frame
//! and element names, and reading the parameters with pointers to their faults.
//!
//! The server's size limits are checked on the raw parameters first, before any naming or
//! conversion work (`docs/limits.md`).

use dbcore::armies::{self, ArmyChoice, ArmyError, ListId};
use dbcore::battle::prebattle::element_id;
use dbcore::battle::{ArmyEntry, Battle, BattleSetup, Prebattle, PrebattleSetup};
use dbcore::dbaix;
use dbcore::limits::{MAX_ARMIES, MAX_ELEMENTS};
use dbcore::record::GameFile;
use dbcore::surface;
use serde_json::{json, Map, Value};

use super::clients::Client;
use super::session::{surface_error, Session};
use super::{
    name_error, read, refusal, refusal_plain, rule_error, take_opt, to_json, Referee, RpcError,
};
use crate::frame::{Frame, Preset};
use crate::rpc_names::{number_items, Names};

/// A set-up is a DBAix scenario when its `format` says so (DBAIX.md §0).
pub fn is_dbaix(setup: &Value) -> bool {
    setup.get("format").and_then(Value::as_str) == Some(dbaix::FORMAT)
}

/// The board depth (BW) a set-up declares, for frames with a downward y; 15 if it has none.
pub fn setup_depth(setup: &Value) -> f64 {
    setup
        .pointer("/battlefield/board/depth")
        .and_then(Value::as_f64)
        .unwrap_or(15.0)
}

/// The frame of a DBAix game: the preset's axes, with inches as the unit it scales
/// (`units_per_bw` read as frame units an inch). Without an explicit scale, `bw` and `tts` are
/// 1 (TTS measures in inches) and `vassal` is 50 pixels an inch. The default frame declared at
/// `hello` gives only its preset here: its scale is a base width's.
fn dbaix_frame(frame: Frame, explicit: Option<f64>) -> Frame {
    Frame {
        preset: frame.preset,
        units_per_bw: Some(explicit.unwrap_or(match frame.preset {
            Preset::Bw | Preset::Tts => 1.0,
            Preset::Vassal => crate::frame::VASSAL_PIXELS_PER_BW,
        })),
    }
}

/// A set-up over the server's limits, refused as dbcore refuses one (code 400) before any work.
fn over_limit(pointer: &str, message: String) -> RpcError {
    rule_error(json!({
        "code": dbcore::ErrorCode::InvalidSetup.number(),
        "rule": null,
        "message": message,
        "detail": null,
        "pointer": pointer,
    }))
}

/// The counts of a set-up's armies and elements (DBA) or figures (DBAix), within
/// [`MAX_ARMIES`] and [`MAX_ELEMENTS`]: checked on the raw JSON, before any naming.
fn check_counts(setup: &Value, dbaix: bool) -> Result<(), RpcError> {
    let len = |v: Option<&Value>| v.and_then(Value::as_array).map_or(0, Vec::len);
    if dbaix {
        let n = len(setup.get("figures"));
        if n > MAX_ELEMENTS {
            return Err(over_limit(
                "/params/setup/figures",
                format!("a set-up has at most {MAX_ELEMENTS} figures, not {n}"),
            ));
        }
        return Ok(());
    }
    let armies = setup
        .get("armies")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    if armies.len() > MAX_ARMIES {
        return Err(over_limit(
            "/params/setup/armies",
            format!(
                "a set-up has at most {MAX_ARMIES} armies, not {}",
                armies.len()
            ),
        ));
    }
    let n: usize = armies.iter().map(|a| len(a.get("elements"))).sum();
    if n > MAX_ELEMENTS {
        return Err(over_limit(
            "/params/setup/armies",
            format!("a set-up has at most {MAX_ELEMENTS} elements in all, not {n}"),
        ));
    }
    Ok(())
}

/// Number the set-up's elements (DBA) or figures (DBAix) whose `id` is the client's string.
/// DBA elements take the pre-battle's numbering (army × 100 + position) when it is free, DBAix
/// figures their position from 1.
fn name_setup(setup: &mut Value, dbaix: bool, names: &mut Names) -> Result<(), RpcError> {
    if dbaix {
        let Some(figures) = setup.get_mut("figures").and_then(Value::as_array_mut) else {
            return Ok(());
        };
        let mut items: Vec<(&mut Value, String)> = figures
            .iter_mut()
            .enumerate()
            .map(|(i, f)| (f, format!("/params/setup/figures/{i}")))
            .collect();
        return number_items(&mut items, |i| i as u32 + 1, names).map_err(name_error);
    }
    let Some(armies) = setup.get_mut("armies").and_then(Value::as_array_mut) else {
        return Ok(());
    };
    let mut items: Vec<(&mut Value, String)> = Vec::new();
    let mut preferred: Vec<u32> = Vec::new();
    for (a, army) in armies.iter_mut().enumerate() {
        if let Some(elements) = army.get_mut("elements").and_then(Value::as_array_mut) {
            for (i, e) in elements.iter_mut().enumerate() {
                preferred.push(element_id(a, i).0);
                items.push((e, format!("/params/setup/armies/{a}/elements/{i}")));
            }
        }
    }
    number_items(&mut items, |i| preferred[i], names).map_err(name_error)
}

/// The surface's `how` with the tray's `seed` when one is given.
fn how(key: &str, v: Value, seed: Option<u64>) -> Value {
    let mut how = json!({ key: v });
    if let Some(s) = seed {
        how["seed"] = s.into();
    }
    how
}

impl Referee {
    /// The frame of a request: its `frame`, else its `client` token's, else the door's client's.
    pub(super) fn frame_of(
        &self,
        p: &Map<String, Value>,
        client: &Client,
    ) -> Result<Frame, RpcError> {
        let frame = match (take_opt::<Frame>(p, "frame")?, p.get("client")) {
            (Some(f), _) => f,
            (None, Some(token)) => self.clients.frame(token)?,
            (None, None) => client.frame,
        };
        frame
            .check()
            .map_err(|m| RpcError::params("/params/frame/units_per_bw", m))?;
        Ok(frame)
    }

    /// The frame of a new battle of either game: the request's, or for DBAix its inch frame.
    fn battle_frame(
        &self,
        p: &Map<String, Value>,
        client: &Client,
        dbaix: bool,
    ) -> Result<Frame, RpcError> {
        let frame = self.frame_of(p, client)?;
        if !dbaix {
            return Ok(frame);
        }
        let explicit = take_opt::<Frame>(p, "frame")?.and_then(|f| f.units_per_bw);
        Ok(dbaix_frame(frame, explicit))
    }

    /// Open `session`: its id and revision.
    fn open(&self, session: Session) -> Result<Value, RpcError> {
        let revision = session.revision();
        let id = self.battles.insert(session, self.limits.max_battles)?;
        Ok(json!({ "battle": id, "revision": revision }))
    }

    /// `battle.create`.
    pub(super) fn create(
        &self,
        p: &Map<String, Value>,
        client: &Client,
    ) -> Result<Value, RpcError> {
        self.battles.has_room(self.limits.max_battles)?;
        if p.contains_key("lists") || p.contains_key("prebattle") {
            return self.create_from_lists(p, client);
        }
        let seed: Option<u64> = take_opt(p, "seed")?;
        if let Some(start) = p.get("bugs") {
            if p.contains_key("setup") || p.contains_key("demo") {
                return Err(RpcError::params(
                    "/params/bugs",
                    "give a `setup`, a `demo` or `bugs`, one of them",
                ));
            }
            // BUGS! measures in inches: no frame converts its positions.
            let frame = Frame {
                preset: Preset::Bw,
                units_per_bw: None,
            };
            let game = surface::Session::new(how("bugs", start.clone(), seed))
                .map_err(|e| surface_error(&e, "/params/bugs"))?;
            return self.open(Session::new(game, frame, Names::default()));
        }
        if let Some(demo) = take_opt::<String>(p, "demo")? {
            if p.contains_key("setup") {
                return Err(RpcError::params(
                    "/params/demo",
                    "give a `setup` or a `demo`, not both",
                ));
            }
            let frame = self.battle_frame(p, client, demo == "dbaix")?;
            let game = surface::Session::new(how("demo", demo.into(), seed))
                .map_err(|e| surface_error(&e, "/params/demo"))?;
            return self.open(Session::new(game, frame, Names::default()));
        }
        let mut setup = p.get("setup").cloned().ok_or_else(|| {
            RpcError::params(
                "/params/setup",
                "give `setup` (a set-up), `demo`, or `lists` or `prebattle` (armies for a pre-battle)",
            )
        })?;
        let dbaix = is_dbaix(&setup);
        check_counts(&setup, dbaix)?;
        let frame = self.battle_frame(p, client, dbaix)?;
        let depth = if dbaix {
            setup
                .pointer("/config/table_depth")
                .and_then(Value::as_f64)
                .unwrap_or(dbaix::DbaixConfig::default().table_depth)
        } else {
            setup_depth(&setup)
        };
        frame
            .inbound(&mut setup, depth)
            .map_err(|m| RpcError::params("/params/setup", m))?;
        let mut names = Names::default();
        name_setup(&mut setup, dbaix, &mut names)?;
        names
            .inbound(&mut setup, "/params/setup")
            .map_err(name_error)?;
        // Read here for the pointer to a malformed field, and for dbcore's typed refusal (every
        // problem of the set-up) when the surface refuses it.
        let refused: Box<dyn FnOnce() -> Option<Value>> = if dbaix {
            let typed: dbaix::DbaixSetup = read(setup.clone(), "/params/setup")?;
            Box::new(move || dbaix::Battle::new(typed).err().map(|e| refusal(&e)))
        } else {
            let typed: BattleSetup = read(setup.clone(), "/params/setup")?;
            Box::new(move || Battle::new(typed).err().map(|e| refusal(&e)))
        };
        let game = surface::Session::new(how("setup", setup, seed)).map_err(|e| {
            refused()
                .map(rule_error)
                .unwrap_or_else(|| surface_error(&e, "/params/setup"))
        })?;
        self.open(Session::new(game, frame, names))
    }

    /// `battle.create` from two army lists (ids or choices) or a pre-battle set-up: with a
    /// `seed`, dbcore's driver plays the pre-battle and the battle awaits its first action;
    /// without, the session starts in the pre-battle and its actions are played over the protocol.
    fn create_from_lists(
        &self,
        p: &Map<String, Value>,
        client: &Client,
    ) -> Result<Value, RpcError> {
        if p.contains_key("setup") {
            return Err(RpcError::params(
                "/params/setup",
                "give a `setup`, or army `lists` / a `prebattle`, not both",
            ));
        }
        let frame = self.frame_of(p, client)?;
        // Big Battle and Giant from two list ids: each army three commands (§14.1).
        let variant = take_opt::<dbcore::battlefield::Variant>(p, "variant")?
            .filter(|v| *v != dbcore::battlefield::Variant::Standard);
        let setup = match (p.get("lists"), take_opt::<PrebattleSetup>(p, "prebattle")?) {
            (Some(_), Some(_)) => {
                return Err(RpcError::params(
                    "/params/prebattle",
                    "give `lists` or `prebattle`, not both",
                ))
            }
            (None, Some(s)) => s,
            (Some(lists), None) if variant.is_some() => {
                let ids: Vec<String> = read(lists.clone(), "/params/lists")?;
                let (Some(v), [first, second]) = (variant, ids.as_slice()) else {
                    return Err(RpcError::params(
                        "/params/lists",
                        "a Big Battle or Giant game names two list ids",
                    ));
                };
                let mut s = PrebattleSetup::from_big_lists(v, first, second).map_err(|e| {
                    let mut data = refusal_plain(&e);
                    data["pointer"] = "/params/lists".into();
                    rule_error(data)
                })?;
                if let Some(side) = take_opt::<f64>(p, "board_side")? {
                    s.board_side = side;
                }
                s
            }
            (Some(lists), None) => {
                let lists: Vec<Value> = read(lists.clone(), "/params/lists")?;
                if lists.len() != 2 {
                    return Err(RpcError::params(
                        "/params/lists",
                        "`lists` names two armies (a list id or an army choice each)",
                    ));
                }
                let mut entries = Vec::new();
                for (i, l) in lists.into_iter().enumerate() {
                    let pointer = format!("/params/lists/{i}");
                    let army = if l.is_string() {
                        let id: ListId = read(l, &pointer)?;
                        armies::default_army(&id)
                    } else {
                        let choice: ArmyChoice = read(l, &pointer)?;
                        armies::choose(&choice)
                    };
                    let army = army.map_err(|e| {
                        let mut data = refusal_plain(&e);
                        if let ArmyError::Invalid(problems) = &e {
                            data["detail"] =
                                json!({ "problems": armies::choose::problems_json(problems) });
                        }
                        data["pointer"] = pointer.into();
                        rule_error(data)
                    })?;
                    entries.push(ArmyEntry::from_army(&army));
                }
                let mut s = PrebattleSetup::new(entries);
                if let Some(side) = take_opt::<f64>(p, "board_side")? {
                    s.board_side = side;
                }
                s
            }
            (None, None) => return Err(RpcError::params(
                "/params",
                "give `lists` (two army list ids or choices) or `prebattle` (a pre-battle set-up)",
            )),
        };
        if setup.armies.len() > MAX_ARMIES {
            return Err(over_limit(
                "/params/prebattle/armies",
                format!("a pre-battle has at most {MAX_ARMIES} armies"),
            ));
        }
        let mut names = Names::default();
        if let Some(given) = take_opt::<Vec<Vec<String>>>(p, "names")? {
            for (army, list) in given.iter().enumerate() {
                let count = setup.armies.get(army).map_or(0, |a| a.elements.len());
                if list.len() > count {
                    return Err(RpcError::params(
                        &format!("/params/names/{army}"),
                        format!("army {army} has {count} elements, not {}", list.len()),
                    ));
                }
                for (index, name) in list.iter().enumerate() {
                    names.insert(element_id(army, index).0, name).map_err(|m| {
                        RpcError::params(&format!("/params/names/{army}/{index}"), m)
                    })?;
                }
            }
        }
        let seed: Option<u64> = take_opt(p, "seed")?;
        let mut pre = Prebattle::new(setup).map_err(|e| rule_error(refusal(&e)))?;
        if let Some(seed) = seed {
            let mut dice = dbcore::SeededDice::new(seed);
            dbcore::driver::play_prebattle(&mut pre, &mut dice)
                .map_err(|e| rule_error(refusal(&e)))?;
        }
        // The surface replays the pre-battle so far, so that each of its actions is logged and
        // may be undone; when it is over the session is already the battle.
        let record = to_json(&GameFile::of_prebattle(pre.record()))?;
        let game = surface::Session::new(how("game", record, seed))
            .map_err(|e| surface_error(&e, "/params"))?;
        self.open(Session::new(game, frame, names))
    }

    /// `battle.import`: a game record in any spelling dbcore reads (the `dbcore-game` record
    /// `battle.export` and `dbcore play --json` write, a battle record, a whole game, a golden
    /// trace; a value or JSON text), replayed, in the request's frame; or a saved `state`
    /// (compact, checked by its digest, or full, checked by replaying it), in BW whatever the
    /// frame.
    pub(super) fn import(
        &self,
        p: &Map<String, Value>,
        client: &Client,
    ) -> Result<Value, RpcError> {
        self.battles.has_room(self.limits.max_battles)?;
        if let Some(state) = p.get("state") {
            if p.contains_key("record") {
                return Err(RpcError::params(
                    "/params/state",
                    "give a `record` or a `state`, not both",
                ));
            }
            let dbaix = state.get("setup").is_some_and(is_dbaix);
            let frame = self.battle_frame(p, client, dbaix)?;
            let game = surface::Session::new(json!({ "state": state }))
                .map_err(|e| surface_error(&e, "/params/state"))?;
            return self.open(Session::new(game, frame, Names::default()));
        }
        let mut record = p
            .get("record")
            .cloned()
            .ok_or_else(|| RpcError::params("/params/record", "missing `record`"))?;
        if let Value::String(text) = &record {
            record = serde_json::from_str(text).map_err(|e| {
                RpcError::params("/params/record", format!("the record is not JSON: {e}"))
            })?;
        }
        let dbaix = record.get("setup").is_some_and(is_dbaix);
        let frame = self.battle_frame(p, client, dbaix)?;
        let depth = if dbaix {
            record
                .pointer("/setup/config/table_depth")
                .and_then(Value::as_f64)
                .unwrap_or(dbaix::DbaixConfig::default().table_depth)
        } else {
            record.get("setup").map_or(15.0, setup_depth)
        };
        frame
            .inbound(&mut record, depth)
            .map_err(|m| RpcError::params("/params/record", m))?;
        let game = surface::Session::new(json!({ "game": record }))
            .map_err(|e| surface_error(&e, "/params/record"))?;
        self.open(Session::new(game, frame, Names::default()))
    }
}
