//! `dbcore odds`: the exact odds of a combat, as a player reads them at the table (§9.6, §10,
//! §12). Each element is a code (`4Bd`, `Mtd-3Bw`) with optional flags after a colon, separated
//! by commas: `general`, `cinc`, `uphill`, `bank`, `demoralised`, `going=good|rough|bad`,
//! `flank=N`, `side=CODE` (up to twice), `rear=CODE`, `defends=camp|city|fort`,
//! `assaults=camp|city|fort`, `extra=N` (further assaulters against a defender).

use dbcore::combat::{Combatant, Holding, Odds, Prepared, Shot, Situation, Stronghold, Supporter};
use dbcore::{ElementKind, Going, Outcome, RulesConfig};

/// The flags of an element, for `--help`.
pub const FLAGS: &str =
    "flags: general, cinc, uphill, bank, demoralised, going=good|rough|bad, flank=N,
side=CODE, rear=CODE, defends=camp|city|fort, assaults=camp|city|fort, extra=N";

/// The odds of `a` against `b` (a shooting at b when `shot` is given: `support=N,back,behind`),
/// as text or as JSON (`{"situation", "odds"}`).
pub fn run(a: &str, b: &str, shot: Option<&str>, json: bool) -> Result<String, String> {
    let (a, b) = (combatant(a)?, combatant(b)?);
    let situation = match shot {
        Some(flags) => {
            let mut s = Shot::default();
            for f in flags.split(',').filter(|f| !f.is_empty()) {
                match f {
                    "back" => s.target_shoots_back = true,
                    "behind" => s.from_behind = true,
                    _ if f.starts_with("support=") => {
                        s.support_shooters = number(&f["support=".len()..])?
                    }
                    _ => return Err(format!("unknown shot flag `{f}`")),
                }
            }
            Situation::shooting(a, b, s)
        }
        None => Situation::close_combat(a, b),
    };
    let cfg = RulesConfig::default();
    let prepared = Prepared::new(&situation, &cfg).map_err(|e| e.to_string())?;
    let odds = prepared.odds();
    if json {
        let v = serde_json::json!({ "situation": situation, "odds": odds });
        return serde_json::to_string_pretty(&v)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string());
    }
    Ok(render(&prepared, &odds))
}

fn number(s: &str) -> Result<u8, String> {
    s.parse()
        .map_err(|_| format!("`{s}` is not a small whole number"))
}

fn place(s: &str) -> Result<Stronghold, String> {
    match s {
        "camp" => Ok(Stronghold::Camp),
        "city" => Ok(Stronghold::City),
        "fort" => Ok(Stronghold::Fort),
        _ => Err(format!("`{s}` is not camp, city or fort")),
    }
}

fn kind(s: &str) -> Result<ElementKind, String> {
    s.parse().map_err(|e: dbcore::ParseKindError| e.to_string())
}

/// One element of the odds: `CODE[:flag,flag=value...]`.
pub fn combatant(spec: &str) -> Result<Combatant, String> {
    let (code, flags) = spec.split_once(':').unwrap_or((spec, ""));
    let mut c = Combatant::new(kind(code)?);
    let mut extra = 0;
    for flag in flags.split(',').filter(|f| !f.is_empty()) {
        let (key, value) = flag.split_once('=').unwrap_or((flag, ""));
        match key {
            "general" => c.general = true,
            "cinc" => {
                c.general = true;
                c.cinc_bonus = true;
            }
            "uphill" => c.uphill = true,
            "bank" => c.defending_bank = true,
            "demoralised" => c.demoralised = true,
            "going" => {
                c.going = match value {
                    "good" => Going::Good,
                    "rough" => Going::Rough,
                    "bad" => Going::Bad,
                    _ => return Err(format!("`{value}` is not good, rough or bad")),
                }
            }
            "flank" => c.flank_rear_contacts = number(value)?,
            "side" => c.side_supporters.push(Supporter::new(kind(value)?)),
            "rear" => c.rear_supporter = Some(Supporter::new(kind(value)?)),
            "defends" => {
                c.holding = Holding::Defending {
                    place: place(value)?,
                    extra_assaulters: 0,
                }
            }
            "assaults" => {
                c.holding = Holding::Assaulting {
                    place: place(value)?,
                }
            }
            "extra" => extra = number(value)?,
            _ => return Err(format!("unknown flag `{flag}`")),
        }
    }
    if let Holding::Defending {
        ref mut extra_assaulters,
        ..
    } = c.holding
    {
        *extra_assaulters = extra;
    }
    Ok(c)
}

fn describe(c: &Combatant) -> String {
    let mut parts = vec![c.kind.to_string()];
    if c.general {
        parts.push("general".into());
    }
    match c.going {
        Going::Good => {}
        Going::Rough => parts.push("in rough going".into()),
        Going::Bad => parts.push("in bad going".into()),
    }
    match c.holding {
        Holding::Field => {}
        Holding::Defending { place, .. } => parts.push(format!("defending a {place}")),
        Holding::Assaulting { place } => parts.push(format!("assaulting a {place}")),
    }
    parts.join(", ")
}

fn factor_line(factors: &[dbcore::Factor]) -> String {
    let total: i32 = factors.iter().map(|f| f.value).sum();
    let list: Vec<String> = factors
        .iter()
        .map(|f| format!("{:+} {}", f.value, f.name))
        .collect();
    format!("{} = {:+}", list.join(", "), total)
}

fn pct(n: u8) -> String {
    format!("{:5.1}%", f64::from(n) * 100.0 / 36.0)
}

fn render(p: &Prepared, o: &Odds) -> String {
    let s = p.situation();
    let (an, bn) = (s.a.kind.to_string(), s.b.kind.to_string());
    let mut out = String::new();
    let what = match s.engagement {
        dbcore::Engagement::CloseCombat => "close combat".to_string(),
        dbcore::Engagement::Shooting(_) => format!("{an} shoots at {bn}"),
    };
    out += &format!("DBA 3.0 combat odds: {what}\n\n");
    out += &format!(
        "  A  {:<34} {}\n",
        describe(&s.a),
        factor_line(p.a_factors())
    );
    out += &format!(
        "  B  {:<34} {}\n\n",
        describe(&s.b),
        factor_line(p.b_factors())
    );
    let m = o.margins;
    out += "  Totals, out of 36:   A doubles B   A wins    tie   B wins   B doubles A\n";
    out += &format!(
        "                       {:>11} {:>8} {:>6} {:>8} {:>13}\n\n",
        m.a_doubled_b, m.a_won, m.tied, m.b_won, m.b_doubled_a
    );
    for (name, counts) in [(&an, &o.a), (&bn, &o.b)] {
        let parts: Vec<String> = Outcome::ALL
            .iter()
            .filter(|x| counts[**x as usize] > 0)
            .map(|x| {
                format!(
                    "{} {}/36 ({})",
                    x,
                    counts[*x as usize],
                    pct(counts[*x as usize]).trim()
                )
            })
            .collect();
        out += &format!("  {name:<8} {}\n", parts.join(" | "));
    }
    out += "\n  What happens                                   chance\n";
    for e in &o.outcomes {
        let bar = "#".repeat(usize::from(e.count));
        out += &format!(
            "  {:<8} {:<10} {:<8} {:<10}  {:>2}/36 {}  {}\n",
            an,
            e.a.label(),
            bn,
            e.b.label(),
            e.count,
            pct(e.count),
            bar
        );
    }
    out
}
