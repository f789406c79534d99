//! Coordinate frames: how a table tool writes positions, converted to and from dbcore's native
//! base widths at the protocol's edge.
//!
//! * `bw`: native. `{"x", "y"}` points and `{"x", "y", "facing"}` poses in base widths, facing a
//!   compass bearing in degrees clockwise from +y.
//! * `tts` (Tabletop Simulator): inches on the x/z ground plane, `{"x", "z"}` and
//!   `{"x", "z", "heading"}`, heading in degrees clockwise from +z (seen from above, as TTS's
//!   y rotation). `units_per_bw` defaults to 40 mm (15 mm figures) in inches.
//! * `vassal`: pixels with the y axis pointing down the screen, origin at the board's top-left
//!   corner; `units_per_bw` pixels a BW (default 50); facing as in `bw` (clockwise from screen up).
//!
//! What is converted: every object that is exactly a point or a pose of the frame, and the lengths
//! named in [`LENGTH_KEYS`], in requests and results alike (so that an action the referee lists,
//! a group advance's `distance` included, applies as it was listed). The rules configuration
//! and the board's size stay in BW: they are rules data, not positions. A facing may always be
//! sent as a unit vector instead of an angle (`"facing": [dx, dy]`, `"heading": [dx, dz]`, in the
//! frame's own axes).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The frame presets (§0.3: the core measures everything in BW).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    Bw,
    Tts,
    Vassal,
}

/// A frame: a preset and its scale. Written `{"preset": "tts", "units_per_bw": 1.5}`, or as
/// the preset's name alone (`"tts"`) for its default scale.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Frame {
    pub preset: Preset,
    /// Frame units in one base width (inches for `tts`, pixels for `vassal`, 1 for `bw`).
    pub units_per_bw: Option<f64>,
}

/// The two spellings of a frame, for reading and for the schema.
#[cfg(feature = "schema")]
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)] // read through `Frame`'s own `Deserialize`, named here for the schema
enum FrameSpelling {
    /// The preset's name: its default scale.
    Preset(Preset),
    /// A preset and, optionally, its scale.
    Full(FrameFields),
}

/// A frame written out whole.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct FrameFields {
    preset: Preset,
    /// Frame units in one base width (inches for `tts`, pixels for `vassal`, 1 for `bw`).
    #[serde(default)]
    units_per_bw: Option<f64>,
}

impl<'de> Deserialize<'de> for Frame {
    /// A string is a preset; anything else is read as the whole frame, so that a mistake in it
    /// is named (`unknown field`, `unknown variant`) instead of "no variant matched".
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        if let Value::String(name) = &v {
            let preset =
                Preset::deserialize(serde::de::value::StrDeserializer::<D::Error>::new(name))?;
            return Ok(Frame {
                preset,
                units_per_bw: None,
            });
        }
        let f = FrameFields::deserialize(v).map_err(serde::de::Error::custom)?;
        Ok(Frame {
            preset: f.preset,
            units_per_bw: f.units_per_bw,
        })
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Frame {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Frame".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        FrameSpelling::json_schema(g)
    }
}

/// 40 mm in inches: one base width of 15 mm figures.
pub const TTS_INCHES_PER_BW: f64 = 40.0 / 25.4;
/// The default scale of the `vassal` frame.
pub const VASSAL_PIXELS_PER_BW: f64 = 50.0;

/// Fields that are lengths in BW, scaled both ways in frames other than `bw`.
pub const LENGTH_KEYS: [&str; 8] = [
    "distance",
    "moved_this_bound",
    "reach_good",
    "reach_rough",
    "limit",
    "asked",
    "allowed",
    "full",
];

impl Default for Frame {
    fn default() -> Self {
        Frame {
            preset: Preset::Bw,
            units_per_bw: None,
        }
    }
}

/// The frame's axes for points, and for poses its angle key.
fn keys(p: Preset) -> (&'static str, &'static str, &'static str) {
    match p {
        Preset::Bw | Preset::Vassal => ("x", "y", "facing"),
        Preset::Tts => ("x", "z", "heading"),
    }
}

impl Frame {
    /// Frame units a BW.
    pub fn scale(&self) -> f64 {
        self.units_per_bw.unwrap_or(match self.preset {
            Preset::Bw => 1.0,
            Preset::Tts => TTS_INCHES_PER_BW,
            Preset::Vassal => VASSAL_PIXELS_PER_BW,
        })
    }

    /// A scale that is a finite positive number, or why not.
    pub fn check(&self) -> Result<(), String> {
        let s = self.scale();
        if s.is_finite() && s > 0.0 && s < 1e6 {
            Ok(())
        } else {
            Err(format!(
                "units_per_bw must be a positive number below 1e6, not {s}"
            ))
        }
    }

    fn is_native(&self) -> bool {
        self.preset == Preset::Bw && self.scale() == 1.0
    }

    /// A position in this frame to BW; `board_depth` is the battlefield's depth in BW (for the
    /// `vassal` frame's downward y).
    fn bw_of(&self, a: f64, b: f64, board_depth: f64) -> (f64, f64) {
        let s = self.scale();
        match self.preset {
            Preset::Bw | Preset::Tts => (a / s, b / s),
            Preset::Vassal => (a / s, board_depth - b / s),
        }
    }

    fn frame_of(&self, x: f64, y: f64, board_depth: f64) -> (f64, f64) {
        let s = self.scale();
        match self.preset {
            Preset::Bw | Preset::Tts => (x * s, y * s),
            Preset::Vassal => (x * s, (board_depth - y) * s),
        }
    }

    /// Convert every point and pose in `v` from this frame into BW (in place).
    pub fn inbound(&self, v: &mut Value, board_depth: f64) -> Result<(), String> {
        let (kx, ky, ka) = keys(self.preset);
        walk_in(self, v, board_depth, (kx, ky, ka))
    }

    /// Convert every point, pose and length in `v` from BW into this frame (in place).
    pub fn outbound(&self, v: &mut Value, board_depth: f64) {
        if self.is_native() {
            return;
        }
        walk_out(self, v, board_depth);
    }
}

/// A facing given as an angle or as a unit vector `[dx, dy]` in the frame's axes, as a bearing.
fn facing_of(f: &Frame, v: &Value) -> Result<f64, String> {
    if let Some(a) = v.as_f64() {
        return Ok(a);
    }
    if let Some([dx, dy]) = v.as_array().map(|a| a.as_slice()) {
        let (Some(dx), Some(dy)) = (dx.as_f64(), dy.as_f64()) else {
            return Err("a facing vector is two numbers".into());
        };
        if !(dx.is_finite() && dy.is_finite()) || dx.hypot(dy) < 1e-9 {
            return Err("a facing vector must be finite and not zero".into());
        }
        // Bearings are clockwise from the frame's forward axis; vassal's forward is screen up.
        let dy = if f.preset == Preset::Vassal { -dy } else { dy };
        return Ok(dx.atan2(dy).to_degrees());
    }
    Err("a facing is a number of degrees or a unit vector [dx, dy]".into())
}

fn walk_in(f: &Frame, v: &mut Value, depth: f64, k: (&str, &str, &str)) -> Result<(), String> {
    match v {
        Value::Object(m) => {
            let point = m.len() == 2 && m.contains_key(k.0) && m.contains_key(k.1);
            let pose =
                m.len() == 3 && m.contains_key(k.0) && m.contains_key(k.1) && m.contains_key(k.2);
            if point || pose {
                let (Some(a), Some(b)) = (m[k.0].as_f64(), m[k.1].as_f64()) else {
                    return Err(format!("`{}` and `{}` must be numbers", k.0, k.1));
                };
                let (x, y) = f.bw_of(a, b, depth);
                let mut out = Map::new();
                out.insert("x".into(), x.into());
                out.insert("y".into(), y.into());
                if pose {
                    out.insert("facing".into(), facing_of(f, &m[k.2])?.into());
                }
                *m = out;
                return Ok(());
            }
            let s = f.scale();
            for (key, c) in m.iter_mut() {
                if LENGTH_KEYS.contains(&key.as_str()) {
                    if let Some(d) = c.as_f64() {
                        *c = (d / s).into();
                        continue;
                    }
                }
                walk_in(f, c, depth, k)?;
            }
            Ok(())
        }
        Value::Array(a) => a.iter_mut().try_for_each(|c| walk_in(f, c, depth, k)),
        _ => Ok(()),
    }
}

fn walk_out(f: &Frame, v: &mut Value, depth: f64) {
    match v {
        Value::Object(m) => {
            let point = m.len() == 2 && m.contains_key("x") && m.contains_key("y");
            let pose = m.len() == 3
                && m.contains_key("x")
                && m.contains_key("y")
                && m.contains_key("facing");
            if point || pose {
                if let (Some(x), Some(y)) = (m["x"].as_f64(), m["y"].as_f64()) {
                    let (kx, ky, ka) = keys(f.preset);
                    let (a, b) = f.frame_of(x, y, depth);
                    let facing = m.get("facing").cloned();
                    let mut out = Map::new();
                    out.insert(kx.into(), a.into());
                    out.insert(ky.into(), b.into());
                    if let Some(facing) = facing {
                        out.insert(ka.into(), facing);
                    }
                    *m = out;
                    return;
                }
            }
            let s = f.scale();
            for (key, c) in m.iter_mut() {
                if LENGTH_KEYS.contains(&key.as_str()) {
                    if let Some(d) = c.as_f64() {
                        *c = (d * s).into();
                        continue;
                    }
                }
                walk_out(f, c, depth);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|c| walk_out(f, c, depth)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tts_poses_go_to_bw_and_back() {
        let f = Frame {
            preset: Preset::Tts,
            units_per_bw: Some(2.0),
        };
        let mut v = json!({"pose": {"x": 3.0, "z": 8.0, "heading": 90.0}, "n": 4});
        f.inbound(&mut v, 15.0).unwrap();
        assert_eq!(
            v,
            json!({"pose": {"x": 1.5, "y": 4.0, "facing": 90.0}, "n": 4})
        );
        f.outbound(&mut v, 15.0);
        assert_eq!(
            v,
            json!({"pose": {"x": 3.0, "z": 8.0, "heading": 90.0}, "n": 4})
        );
    }

    #[test]
    fn vassal_y_points_down_from_the_top_edge() {
        let f = Frame {
            preset: Preset::Vassal,
            units_per_bw: Some(10.0),
        };
        // Lengths are frame units both ways: what the referee answers, it reads back alike.
        let mut v = json!([{"x": 20.0, "y": 0.0}, {"distance": 15.0}]);
        f.inbound(&mut v, 15.0).unwrap();
        assert_eq!(v, json!([{"x": 2.0, "y": 15.0}, {"distance": 1.5}]));
        f.outbound(&mut v, 15.0);
        assert_eq!(v, json!([{"x": 20.0, "y": 0.0}, {"distance": 15.0}]));
    }

    #[test]
    fn a_facing_may_be_a_unit_vector() {
        let f = Frame::default();
        let mut v = json!({"x": 1.0, "y": 1.0, "facing": [1.0, 0.0]});
        f.inbound(&mut v, 15.0).unwrap();
        assert_eq!(v["facing"], json!(90.0));
        let vassal = Frame {
            preset: Preset::Vassal,
            units_per_bw: None,
        };
        // Screen up is (0, -1) in pixels: facing 0.
        let mut v = json!({"x": 0.0, "y": 0.0, "facing": [0.0, -1.0]});
        vassal.inbound(&mut v, 15.0).unwrap();
        assert_eq!(v["facing"], json!(0.0));
        let mut bad = json!({"x": 0.0, "y": 0.0, "facing": [0.0, 0.0]});
        assert!(f.inbound(&mut bad, 15.0).is_err());
    }
}
