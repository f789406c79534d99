//! `cargo run -p xtask -- armies [--check]`: build `dbcore/src/armies/lists.json` and
//! `dbcore/src/armies/corrections.csv` from the two transcriptions in `../shared/data/` and the
//! hand-made decisions in `dbcore/src/armies/overrides.csv`.
//!
//! The rules of reconciliation (docs/armies.md says the same for readers):
//! - Ids: a source's record is known by its id and, when the id repeats in that source, its
//!   occurrence (`II/78a#2`); an override `id` renames it. Records of the two sources with the
//!   same id are one list.
//! - Troops: both texts are tidied by the generic rules below and parsed. Where they agree, or
//!   only one source has the list, that text is used. Where they differ, the one that parses
//!   and totals 12 elements with one general wins; if both do, the JSON (the fuller
//!   transcription, with notes) is kept. An override `troops` replaces both.
//! - Name, dates, aggression, home topography: the JSON's, tidied; the CSV's where the JSON has
//!   none; disagreements on aggression and topography are listed.
//! - Enemies and allies: the CSV's (the JSON has none); references that name no bundled list
//!   are dropped and listed.
//!
//! Every decision that is not "both sources agree" is a row of `corrections.csv`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use dbcore::armies::{AllyOption, ArmyList, Book, Dates, HomeTopography, ListId, TroopEntry};
use dbcore::terrain::HomeTerrain;

fn data_dir(root: &Path) -> PathBuf {
    root.parent()
        .map(|p| p.join("shared").join("data"))
        .unwrap_or_else(|| PathBuf::from("../shared/data"))
}

fn armies_dir(root: &Path) -> PathBuf {
    root.join("dbcore").join("src").join("armies")
}

/// Read CSV text (RFC 4180 quoting) into rows of fields.
pub fn read_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    field.push('"');
                    chars.next();
                } else {
                    quoted = false;
                }
            } else {
                field.push(c);
            }
            continue;
        }
        match c {
            '"' => quoted = true,
            ',' => row.push(std::mem::take(&mut field)),
            '\r' => {}
            '\n' => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            _ => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One row of the corrections table.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Correction {
    id: String,
    field: String,
    json: String,
    csv: String,
    chosen: String,
    reason: String,
}

/// A hand-made decision: `key` is a list id (or `json:ID#N` / `csv:ID#N` for a source record).
#[derive(Debug, Clone)]
struct Override {
    value: String,
    reason: String,
}

type Overrides = BTreeMap<(String, String), Override>;

fn read_overrides(text: &str) -> Result<Overrides, String> {
    let mut map = Overrides::new();
    for (i, row) in read_csv(text).into_iter().enumerate().skip(1) {
        if row.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let [key, field, value, reason] = &row[..] else {
            return Err(format!(
                "overrides.csv line {}: expected 4 fields (key,field,value,reason)",
                i + 1
            ));
        };
        let k = (key.trim().to_string(), field.trim().to_string());
        if map.contains_key(&k) {
            return Err(format!("overrides.csv line {}: {k:?} given twice", i + 1));
        }
        map.insert(
            k,
            Override {
                value: value.trim().to_string(),
                reason: reason.trim().to_string(),
            },
        );
    }
    Ok(map)
}

/// A record of one source, before reconciliation.
#[derive(Debug, Clone, Default)]
struct Record {
    name: String,
    dates: Option<String>,
    aggression: Option<u8>,
    topography: String,
    troops: Vec<String>,
    enemies: String,
    allies: String,
}

/// Generic tidying of a troop entry's text, the same for both sources. Each rule is listed
/// once in the corrections table (id `*`).
const GENERIC_RULES: &[(&str, &str, &str)] = &[
    (
        "2LH",
        "LH",
        "DBMM figure count on Light Horse; DBA 3.0 writes LH",
    ),
    (
        "2Ps",
        "Ps",
        "DBMM figure count on Psiloi; DBA 3.0 writes Ps",
    ),
];

fn tidy_entry(text: &str) -> String {
    let mut t = text.trim().trim_end_matches('.').trim().to_string();
    for (from, to, _) in GENERIC_RULES {
        t = replace_code(&t, from, to);
    }
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Replace a whole code token (not part of a longer one).
fn replace_code(text: &str, from: &str, to: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().last();
        let after = rest[i + from.len()..].chars().next();
        let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_ascii_alphanumeric() && c != '-');
        // `x2LH` (a count before) is a boundary too.
        let before_ok = boundary(before) || before == Some('x') || before == Some('/');
        out.push_str(&rest[..i]);
        if before_ok && boundary(after) {
            out.push_str(to);
        } else {
            out.push_str(from);
        }
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

/// Split a list's troop text into entries at top-level commas. A `[…] or […]` group spanning
/// several entries becomes one entry of packages: `(a + b) or (c + d)`.
fn split_entries(text: &str) -> Vec<String> {
    let mut entries = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    for c in text.trim().trim_end_matches('.').chars() {
        match c {
            '(' | '[' => {
                depth += 1;
                cur.push(if c == '[' { '(' } else { c });
            }
            ')' | ']' => {
                depth -= 1;
                cur.push(if c == ']' { ')' } else { c });
            }
            ',' if depth > 0 => cur.push_str(" +"),
            ',' => entries.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    if !cur.trim().is_empty() {
        entries.push(cur);
    }
    entries
        .into_iter()
        .map(|e| tidy_entry(&e))
        .filter(|e| !e.is_empty())
        .collect()
}

fn read_json_records(text: &str) -> Result<Vec<(String, Record)>, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("dba3-armies.json: {e}"))?;
    let armies = v["armies"]
        .as_array()
        .ok_or("dba3-armies.json: no `armies` array")?;
    let mut out = Vec::new();
    for a in armies {
        let s = |k: &str| a[k].as_str().unwrap_or("").to_string();
        out.push((
            s("id"),
            Record {
                name: s("name"),
                dates: a["dates"].as_str().map(str::to_string),
                aggression: a["aggression"].as_u64().map(|n| n as u8),
                topography: s("home_topography"),
                troops: split_entries(&s("troops")),
                enemies: String::new(),
                allies: String::new(),
            },
        ));
    }
    Ok(out)
}

fn read_csv_records(text: &str) -> Result<Vec<(String, Record)>, String> {
    let rows = read_csv(text);
    let mut out = Vec::new();
    for (i, r) in rows.iter().enumerate().skip(1) {
        if r.len() < 46 {
            return Err(format!(
                "dbaarmy-variants.csv line {}: {} fields",
                i + 1,
                r.len()
            ));
        }
        let book = r[0]
            .trim()
            .parse::<u8>()
            .ok()
            .and_then(Book::from_number)
            .ok_or_else(|| format!("dbaarmy-variants.csv line {}: book {:?}", i + 1, r[0]))?;
        let id = format!("{}/{}{}", book.roman(), r[1].trim(), r[2].trim());
        let mut troops = vec![tidy_entry(&format!("1x{} (Gen)", r[7].trim()))];
        for f in &r[8..18] {
            if !f.trim().is_empty() {
                troops.extend(split_entries(f));
            }
        }
        let (name, dates) = split_name_dates(r[3].trim());
        out.push((
            id,
            Record {
                name,
                dates,
                aggression: r[6].trim().parse().ok(),
                topography: r[5].trim().to_string(),
                troops,
                enemies: r[44].trim().to_string(),
                allies: r[45].trim().to_string(),
            },
        ));
    }
    Ok(out)
}

/// The CSV writes the dates at the end of the name: `Early Sumerian Army 3000-2800 BC`.
fn split_name_dates(s: &str) -> (String, Option<String>) {
    let words: Vec<&str> = s.split_whitespace().collect();
    for start in 0..words.len() {
        let tail = words[start..].join(" ");
        if tail.starts_with(|c: char| c.is_ascii_digit())
            && Dates::parse(&compact_dates(&tail)).is_some()
        {
            return (words[..start].join(" "), Some(compact_dates(&tail)));
        }
    }
    (s.to_string(), None)
}

/// `500 BC-178 AD` → `500BC-178AD`.
fn compact_dates(s: &str) -> String {
    s.replace(" BC", "BC")
        .replace(" AD", "AD")
        .replace(" - ", "-")
        .replace("- ", "-")
        .replace(" -", "-")
}

/// Key the records of one source by id, the second and later occurrences of an id as `ID#N`,
/// applying `id` overrides keyed `SOURCE:ID` or `SOURCE:ID#N` (the value `drop` drops it).
/// Records that still share an id are grouped, in source order.
fn key_records(
    source: &str,
    records: Vec<(String, Record)>,
    ov: &Overrides,
    corrections: &mut Vec<Correction>,
) -> Result<BTreeMap<ListId, Vec<(String, Record)>>, String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out: BTreeMap<ListId, Vec<(String, Record)>> = BTreeMap::new();
    for (id, rec) in records {
        let n = seen.entry(id.clone()).or_insert(0);
        *n += 1;
        let key = if *n == 1 {
            format!("{source}:{id}")
        } else {
            format!("{source}:{id}#{n}")
        };
        let final_id = match ov.get(&(key.clone(), "id".to_string())) {
            Some(o) => {
                let (j, c) = if source == "json" {
                    (key.clone(), String::new())
                } else {
                    (String::new(), key.clone())
                };
                corrections.push(Correction {
                    id: if o.value == "drop" {
                        id.clone()
                    } else {
                        o.value.clone()
                    },
                    field: "id".into(),
                    json: j,
                    csv: c,
                    chosen: o.value.clone(),
                    reason: o.reason.clone(),
                });
                if o.value == "drop" {
                    continue;
                }
                o.value.clone()
            }
            None => id.clone(),
        };
        let lid: ListId = final_id
            .parse()
            .map_err(|e| format!("{key}: {e} (add an `id` override)"))?;
        out.entry(lid).or_default().push((key, rec));
    }
    Ok(out)
}

/// One record per id. Where the JSON repeats an id (its sub-options of one variant, such as
/// "with militia"), the record whose troops agree with the CSV is used, else the first; the
/// others are listed.
fn pick_records(
    grouped: BTreeMap<ListId, Vec<(String, Record)>>,
    other: &BTreeMap<ListId, Vec<(String, Record)>>,
    source: &str,
    corrections: &mut Vec<Correction>,
) -> Result<BTreeMap<ListId, Record>, String> {
    let mut out = BTreeMap::new();
    for (id, mut recs) in grouped {
        if recs.len() > 1 && source == "csv" {
            return Err(format!(
                "{}: id {id} occurs twice in the CSV (add an `id` override)",
                recs[1].0
            ));
        }
        let wanted = other
            .get(&id)
            .and_then(|o| check_troops(&o[0].1.troops).ok())
            .map(|t| canonical(&t));
        let pos = recs
            .iter()
            .position(|(_, r)| {
                wanted.is_some() && check_troops(&r.troops).ok().map(|t| canonical(&t)) == wanted
            })
            .unwrap_or(0);
        let first_name = recs[0].1.name.clone();
        let (_, mut chosen) = recs.remove(pos);
        // The first record names the variant; later ones name one of its options.
        chosen.name = first_name;
        // The records of one variant together cover its whole span of years (the JSON splits
        // some variants by date, as `110-85BC` and `84-47BC`).
        let spans: Vec<Dates> = std::iter::once(&chosen)
            .chain(recs.iter().map(|(_, r)| r))
            .filter_map(|r| {
                r.dates
                    .as_deref()
                    .and_then(|d| Dates::parse(&compact_dates(d)))
            })
            .collect();
        if !recs.is_empty() && spans.len() == recs.len() + 1 {
            let from = spans.iter().map(|d| d.from).min().unwrap_or(0);
            let to = spans.iter().map(|d| d.to).max().unwrap_or(0);
            let text = year_text(from, to);
            if chosen.dates.as_deref().map(compact_dates) != Some(text.clone()) {
                corrections.push(Correction {
                    id: id.to_string(),
                    field: "dates".into(),
                    json: spans.iter().map(|d| d.text.clone()).collect::<Vec<_>>().join(" & "),
                    csv: String::new(),
                    chosen: text.clone(),
                    reason: "the JSON splits the variant's years over several records: their whole span is kept".into(),
                });
                chosen.dates = Some(text);
            }
        }
        for (key, r) in recs {
            corrections.push(Correction {
                id: id.to_string(),
                field: "record".into(),
                json: format!("{key}: {}: {}", r.name, r.troops.join(", ")),
                csv: String::new(),
                chosen: "merged".into(),
                reason: "a second JSON record of the same variant (one of its options): the record agreeing with the CSV, or the first, gives the troops; the first gives the name".into(),
            });
        }
        out.insert(id, chosen);
    }
    Ok(out)
}

/// The JSON often cuts a list's title where its dates begin (`Avar Army 553-557AD &` with the
/// dates `632-826AD`, `Suevi:`, `Ariovistus's Army in` `58BC`). Mend the title and take the
/// dates as the whole span of years the title and the dates name.
fn tidy_name_dates(name: &str, dates: &Dates) -> (String, Dates) {
    let year_of = |w: &str| {
        let w = w.trim_matches(|c: char| matches!(c, ',' | ':' | '(' | ')' | '.'));
        Dates::parse(w.strip_prefix("circa").unwrap_or(w))
    };
    let full = compact_dates(&format!("{name} {}", dates.text));
    let spans: Vec<Dates> = full.split_whitespace().filter_map(year_of).collect();
    let from = spans.iter().map(|d| d.from).min().unwrap_or(dates.from);
    let to = spans.iter().map(|d| d.to).max().unwrap_or(dates.to);
    let span = if (from, to) == (dates.from, dates.to) {
        dates.clone()
    } else {
        Dates::parse(&year_text(from, to)).unwrap_or_else(|| dates.clone())
    };

    let trimmed = name.trim();
    let name_words: Vec<String> = compact_dates(trimmed)
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let last = name_words.last().map(String::as_str).unwrap_or("");
    let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
    let is_connector = |w: &str| matches!(w, "&" | "and" | "or") || w.ends_with(',');
    let new_name = if is_connector(last) {
        // Words before the title's first date, without a dangling connector.
        let mut kept: Vec<&str> = name_words
            .iter()
            .map(String::as_str)
            .take_while(|w| year_of(w).is_none())
            .collect();
        while kept.last().is_some_and(|w| is_connector(w)) {
            kept.pop();
        }
        kept.join(" ").trim_end_matches([',', ':']).to_string()
    } else if let Some(stripped) = trimmed.strip_suffix(':') {
        stripped.trim().to_string()
    } else if matches!(last, "in" | "at" | "before" | "after" | "from" | "circa") {
        format!("{trimmed} {}", dates.text)
    } else if last
        .strip_prefix("circa")
        .unwrap_or(last)
        .starts_with(|c: char| c.is_ascii_digit())
        && digits(last) == digits(&dates.text)
    {
        // The dates repeated at the end of the title.
        name_words[..name_words.len() - 1].join(" ")
    } else {
        trimmed.to_string()
    };
    (new_name, span)
}

/// `-110, -47` → `110-47BC`; `-20, 30` → `20BC-30AD`.
fn year_text(from: i32, to: i32) -> String {
    let era = |y: i32| if y < 0 { "BC" } else { "AD" };
    if from == to {
        format!("{}{}", from.abs(), era(from))
    } else if (from < 0) == (to < 0) {
        format!("{}-{}{}", from.abs(), to.abs(), era(to))
    } else {
        format!("{}BC-{}AD", from.abs(), to)
    }
}

fn parse_terrain(word: &str) -> Option<HomeTerrain> {
    HomeTerrain::ALL
        .into_iter()
        .find(|t| format!("{t:?}").eq_ignore_ascii_case(word.trim()))
}

/// Read a topography as the JSON writes it (`Arable`, `Tropical or Dry`, `Arable, Hilly or
/// Littoral`); `None` when a word is not a home terrain (then an override is needed).
fn parse_topography(text: &str) -> Option<HomeTopography> {
    let t = text.replace(" or ", ",").replace('/', ",");
    let mut all = Vec::new();
    for w in t.split(',') {
        let w = w.trim();
        if w.is_empty() {
            continue;
        }
        let terrain = parse_terrain(w)?;
        if !all.contains(&terrain) {
            all.push(terrain);
        }
    }
    let (&first, rest) = all.split_first()?;
    Some(HomeTopography {
        terrain: first,
        alternatives: rest.to_vec(),
        littoral: all.contains(&HomeTerrain::Littoral),
        note: None,
    })
}

/// Parse and check a list's entries: all parse, one general, 12 elements.
fn check_troops(entries: &[String]) -> Result<Vec<TroopEntry>, String> {
    let parsed: Vec<TroopEntry> = entries
        .iter()
        .map(|e| e.parse::<TroopEntry>().map_err(|err| err.to_string()))
        .collect::<Result<_, _>>()?;
    let generals = parsed.iter().filter(|e| e.general).count();
    if generals != 1 {
        return Err(format!("{generals} entries marked (Gen)"));
    }
    if let Some(e) = parsed.iter().find(|e| !e.sizes_agree()) {
        return Err(format!("the alternatives of `{e}` differ in size"));
    }
    let total: u32 = parsed.iter().map(TroopEntry::elements).sum();
    if total != 12 {
        return Err(format!("{total} elements, not 12"));
    }
    Ok(parsed)
}

/// A list's entries in a normal form, to compare the sources regardless of spelling: choices
/// of a part sorted and without repeats, simple entries offering the same choices merged (2xPs,
/// 3xPs is 5xPs), entries sorted. With `relax`, `A/B` is also taken as `A or B` (the JSON
/// often spells the lists' `3/4Bd` as `3Bd or 4Bd`).
fn canonical_form(entries: &[TroopEntry], relax: Relax) -> Vec<String> {
    use dbcore::armies::{Choice, Troop};
    let mut simple: BTreeMap<(bool, Vec<String>), u32> = BTreeMap::new();
    let mut other = Vec::new();
    for e in entries {
        let mut e = e.clone();
        for p in &mut e.packages {
            for part in &mut p.parts {
                let mut choices: Vec<Choice> = Vec::new();
                for c in &part.choices {
                    let expanded = match (c.troop, relax) {
                        (Troop::Either(a, b), Relax::Slash) => vec![Troop::One(a), Troop::One(b)],
                        (Troop::Either(a, b), Relax::Dismount) if a.is_mounted() && b.is_foot() => {
                            vec![Troop::Dismounts {
                                mounted: a,
                                foot: b,
                            }]
                        }
                        (t, _) => vec![t],
                    };
                    for t in expanded {
                        if !choices.iter().any(|x| x.troop == t) {
                            choices.push(Choice {
                                troop: t,
                                note: None,
                            });
                        }
                    }
                }
                choices.sort_by_key(|c| c.troop);
                part.choices = choices;
            }
        }
        if e.packages.len() == 1 && e.packages[0].parts.len() == 1 {
            let part = &e.packages[0].parts[0];
            let key = (
                e.general,
                part.choices.iter().map(ToString::to_string).collect(),
            );
            *simple.entry(key).or_insert(0) += u32::from(part.count);
        } else {
            other.push(e.to_string());
        }
    }
    let mut v: Vec<String> = simple
        .into_iter()
        .map(|((g, c), n)| format!("{n}x{}{}", c.join(" or "), if g { " (Gen)" } else { "" }))
        .chain(other)
        .collect();
    v.sort();
    v
}

/// How far [`canonical_form`] looks past spelling.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Relax {
    None,
    /// `M/F` (mounted, foot) read as `M//F`: the CSV writes the dismount with one slash.
    Dismount,
    /// `A/B` read as `A or B`.
    Slash,
}

fn canonical(entries: &[TroopEntry]) -> Vec<String> {
    canonical_form(entries, Relax::None)
}

/// Entries that offer exactly the same choices (`3xPs, 1xPs, 1xPs`, as the CSV splits some)
/// become one (`5xPs`), at the first one's place: the largest entry of §16.4 depends on it.
fn merge_repeats(entries: Vec<TroopEntry>) -> Vec<TroopEntry> {
    let mut out: Vec<TroopEntry> = Vec::new();
    let simple = |e: &TroopEntry| e.packages.len() == 1 && e.packages[0].parts.len() == 1;
    for e in entries {
        let same = out.iter_mut().find(|o| {
            simple(o)
                && simple(&e)
                && !o.general
                && !e.general
                && o.packages[0].parts[0].choices == e.packages[0].parts[0].choices
        });
        match same {
            Some(o) => o.packages[0].parts[0].count += e.packages[0].parts[0].count,
            None => out.push(e),
        }
    }
    out
}

/// The number of `A/B` troops in a list.
fn eithers(entries: &[TroopEntry]) -> usize {
    entries
        .iter()
        .flat_map(|e| &e.packages)
        .flat_map(|p| &p.parts)
        .flat_map(|p| &p.choices)
        .filter(|c| matches!(c.troop, dbcore::armies::Troop::Either(..)))
        .count()
}

/// Read a reference list (`I/1a, 4a, 5a` or `I/4a or 5a or (6a and/or 7a)`) into options, each
/// a group of list references; words that are not ids are returned apart.
fn parse_refs(text: &str) -> (Vec<Vec<String>>, Vec<String>) {
    let mut options: Vec<Vec<String>> = Vec::new();
    let mut junk = Vec::new();
    let mut book = String::new();
    let mut group: Option<Vec<String>> = None;
    let mut last_and = false;
    let spaced = text
        .replace('(', " ( ")
        .replace(')', " ) ")
        .replace(',', " , ")
        .replace(". ", " , ")
        .replace('.', " ")
        .replace("and/ or", "and/or")
        .replace("and or", "and/or");
    for w in spaced.split_whitespace() {
        match w {
            "(" => group = Some(Vec::new()),
            ")" => {
                if let Some(g) = group.take() {
                    if !g.is_empty() {
                        options.push(g);
                    }
                }
            }
            "," | "or" => last_and = false,
            "and/or" | "and" | "&" => last_and = true,
            _ => {
                let id = if let Some((b, rest)) = w.split_once('/') {
                    book = b.to_string();
                    format!("{b}/{rest}")
                } else if w.starts_with(|c: char| c.is_ascii_digit()) && !book.is_empty() {
                    format!("{book}/{w}")
                } else {
                    junk.push(w.to_string());
                    continue;
                };
                if let Some(g) = group.as_mut() {
                    g.push(id);
                } else if last_and {
                    match options.last_mut() {
                        Some(o) => o.push(id),
                        None => options.push(vec![id]),
                    }
                } else {
                    options.push(vec![id]);
                }
                last_and = false;
            }
        }
    }
    (options, junk)
}

/// Everything the generator makes: the data file and the corrections table.
pub struct Generated {
    pub lists_json: String,
    pub corrections_csv: String,
    pub lists: usize,
}

pub fn generate(root: &Path) -> Result<Generated, String> {
    let data = data_dir(root);
    let read = |p: PathBuf| fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()));
    let json_text = read(data.join("dba3-armies.json"))?;
    let csv_text = read(data.join("dbaarmy-variants.csv"))?;
    let ov = read_overrides(&read(armies_dir(root).join("overrides.csv"))?)?;
    let mut corr: Vec<Correction> = Vec::new();
    corr.push(Correction {
        id: "*".into(),
        field: "troops".into(),
        json: "3xPs, 1xPs".into(),
        csv: "3xPs, 1xPs".into(),
        chosen: "4xPs".into(),
        reason: "entries offering the same choices are one entry (the largest entry of §16.4 depends on it)".into(),
    });
    for (from, to, why) in GENERIC_RULES {
        corr.push(Correction {
            id: "*".into(),
            field: "troops".into(),
            json: (*from).into(),
            csv: (*from).into(),
            chosen: (*to).into(),
            reason: (*why).into(),
        });
    }

    let json_records = read_json_records(&json_text)?;
    let csv_records = read_csv_records(&csv_text)?;
    let (n_json, n_csv) = (json_records.len(), csv_records.len());
    let json_grouped = key_records("json", json_records, &ov, &mut corr)?;
    let csv_grouped = key_records("csv", csv_records, &ov, &mut corr)?;
    let json = pick_records(json_grouped.clone(), &csv_grouped, "json", &mut corr)?;
    let csv = pick_records(csv_grouped, &json_grouped, "csv", &mut corr)?;

    let mut ids: Vec<ListId> = json.keys().chain(csv.keys()).copied().collect();
    ids.sort();
    ids.dedup();

    let mut lists: Vec<ArmyList> = Vec::new();
    let mut refs: Vec<(String, String)> = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    for id in &ids {
        let (j, c) = (json.get(id), csv.get(id));
        let ids = id.to_string();
        let get = |field: &str| ov.get(&(ids.clone(), field.to_string()));
        let mut note = |field: &str, jv: &str, cv: &str, chosen: &str, reason: &str| {
            corr.push(Correction {
                id: ids.clone(),
                field: field.into(),
                json: jv.into(),
                csv: cv.into(),
                chosen: chosen.into(),
                reason: reason.into(),
            })
        };
        if get("drop").is_some() {
            let o = get("drop").expect("checked");
            note("drop", "", "", "dropped", &o.reason);
            continue;
        }
        if j.is_none() {
            note("source", "", "present", "csv", "list only in the CSV");
        }
        if c.is_none() {
            note(
                "source",
                "present",
                "",
                "json",
                "list only in the JSON: no enemies or allies",
            );
        }
        let jt = |f: fn(&Record) -> String| j.map(f).unwrap_or_default();
        let ct = |f: fn(&Record) -> String| c.map(f).unwrap_or_default();

        // Troops.
        let troops_j = jt(|r| r.troops.join(", "));
        let troops_c = ct(|r| r.troops.join(", "));
        let troops = if let Some(o) = get("troops") {
            let entries = split_entries(&o.value);
            match check_troops(&entries) {
                Ok(t) => {
                    note("troops", &troops_j, &troops_c, &o.value, &o.reason);
                    t
                }
                Err(e) => {
                    problems.push(format!("{id}: override troops: {e}"));
                    continue;
                }
            }
        } else {
            let pj = j.map(|r| check_troops(&r.troops));
            let pc = c.map(|r| check_troops(&r.troops));
            match (pj, pc) {
                (Some(Ok(a)), Some(Ok(b))) => {
                    if canonical(&a) == canonical(&b) {
                        a
                    } else if canonical_form(&a, Relax::Dismount)
                        == canonical_form(&b, Relax::Dismount)
                    {
                        note(
                            "troops",
                            &troops_j,
                            &troops_c,
                            "json",
                            "the CSV writes a dismountable M//F as M/F: the JSON's // is kept (§2.3)",
                        );
                        a
                    } else if canonical_form(&a, Relax::Slash) == canonical_form(&b, Relax::Slash) {
                        // Only `A/B` against `A or B` differ: keep the lists' own `/`.
                        let (chosen, t) = if eithers(&b) > eithers(&a) {
                            ("csv", b)
                        } else {
                            ("json", a)
                        };
                        note(
                            "troops",
                            &troops_j,
                            &troops_c,
                            chosen,
                            "one source spells the lists' A/B (all alike, §2.3) as a per-element A or B: the A/B is kept",
                        );
                        t
                    } else {
                        note(
                            "troops",
                            &troops_j,
                            &troops_c,
                            "json",
                            "both valid and they differ: the JSON (with the lists' notes) is kept",
                        );
                        a
                    }
                }
                (Some(Ok(a)), Some(Err(e))) => {
                    note("troops", &troops_j, &troops_c, "json", &format!("CSV: {e}"));
                    a
                }
                (Some(Err(e)), Some(Ok(b))) => {
                    note("troops", &troops_j, &troops_c, "csv", &format!("JSON: {e}"));
                    b
                }
                (Some(Ok(a)), None) | (None, Some(Ok(a))) => a,
                (pj, pc) => {
                    let e = |p: Option<Result<Vec<TroopEntry>, String>>| {
                        p.and_then(Result::err).unwrap_or_default()
                    };
                    problems.push(format!(
                        "{id}: no valid troops (add a `troops` override): json `{troops_j}`: {}; csv `{troops_c}`: {}",
                        e(pj),
                        e(pc)
                    ));
                    continue;
                }
            }
        };

        let troops = merge_repeats(troops);

        // Name.
        let name = match get("name") {
            Some(o) => {
                note(
                    "name",
                    &jt(|r| r.name.clone()),
                    &ct(|r| r.name.clone()),
                    &o.value,
                    &o.reason,
                );
                o.value.clone()
            }
            None => j.or(c).map(|r| r.name.clone()).unwrap_or_default(),
        };

        // Dates.
        let date_text = match get("dates") {
            Some(o) => {
                note(
                    "dates",
                    &jt(|r| r.dates.clone().unwrap_or_default()),
                    &ct(|r| r.dates.clone().unwrap_or_default()),
                    &o.value,
                    &o.reason,
                );
                Some(o.value.clone())
            }
            None => {
                let jd = j
                    .and_then(|r| r.dates.clone())
                    .filter(|d| Dates::parse(&compact_dates(d)).is_some());
                match jd {
                    Some(d) => Some(compact_dates(&d)),
                    None => {
                        let cd = c.and_then(|r| r.dates.clone());
                        if j.is_some() {
                            note(
                                "dates",
                                &jt(|r| r.dates.clone().unwrap_or_default()),
                                &cd.clone().unwrap_or_default(),
                                "csv",
                                "the JSON gives no readable dates",
                            );
                        }
                        cd
                    }
                }
            }
        };
        let Some(dates) = date_text.as_deref().and_then(Dates::parse) else {
            problems.push(format!("{id}: no readable dates (add a `dates` override)"));
            continue;
        };
        let (name, dates) = if get("name").is_none() && get("dates").is_none() {
            let (tidy_name, tidy_dates) = tidy_name_dates(&name, &dates);
            if tidy_name != name {
                note(
                    "name",
                    &name,
                    &ct(|r| r.name.clone()),
                    &tidy_name,
                    "the JSON cut the list's title at its dates: the title is mended",
                );
            }
            if tidy_dates != dates {
                note(
                    "dates",
                    &dates.text,
                    &ct(|r| r.dates.clone().unwrap_or_default()),
                    &tidy_dates.text,
                    "the title names more years than the dates field: the whole span is kept",
                );
            }
            (tidy_name, tidy_dates)
        } else {
            (name, dates)
        };

        // Aggression.
        let (ja, ca) = (j.and_then(|r| r.aggression), c.and_then(|r| r.aggression));
        let aggression = match get("aggression") {
            Some(o) => {
                note(
                    "aggression",
                    &ja.map(|a| a.to_string()).unwrap_or_default(),
                    &ca.map(|a| a.to_string()).unwrap_or_default(),
                    &o.value,
                    &o.reason,
                );
                o.value
                    .parse()
                    .map_err(|_| format!("{id}: aggression override"))?
            }
            None => {
                if let (Some(a), Some(b)) = (ja, ca) {
                    if a != b {
                        note(
                            "aggression",
                            &a.to_string(),
                            &b.to_string(),
                            "json",
                            "the sources differ: the JSON is kept",
                        );
                    }
                }
                match ja.or(ca) {
                    Some(a) => a,
                    None => {
                        problems.push(format!("{id}: no aggression"));
                        continue;
                    }
                }
            }
        };
        if aggression > 4 {
            problems.push(format!("{id}: aggression {aggression} is not 0-4"));
            continue;
        }

        // Home topography.
        let (jtop, ctop) = (jt(|r| r.topography.clone()), ct(|r| r.topography.clone()));
        let home = match get("home") {
            Some(o) => {
                let (text, cond) = match o.value.split_once(';') {
                    Some((a, b)) => (a.to_string(), Some(b.trim().to_string())),
                    None => (o.value.clone(), None),
                };
                let Some(mut h) = parse_topography(&text) else {
                    problems.push(format!("{id}: home override `{}`", o.value));
                    continue;
                };
                h.note = cond;
                note("home", &jtop, &ctop, &o.value, &o.reason);
                h
            }
            None => {
                let hj = j.and_then(|r| parse_topography(&r.topography));
                let hc = c.and_then(|r| parse_topography(&r.topography));
                match (hj, hc) {
                    (Some(a), Some(b)) => {
                        if a.terrain != b.terrain {
                            note(
                                "home",
                                &jtop,
                                &ctop,
                                "json",
                                "the sources differ: the JSON is kept",
                            );
                        }
                        a
                    }
                    (Some(a), None) => {
                        if c.is_some() {
                            note(
                                "home",
                                &jtop,
                                &ctop,
                                "json",
                                "the CSV's topography is unreadable",
                            );
                        }
                        a
                    }
                    (None, Some(b)) => {
                        if j.is_some() {
                            note(
                                "home",
                                &jtop,
                                &ctop,
                                "csv",
                                "the JSON's topography is not a home terrain",
                            );
                        }
                        b
                    }
                    (None, None) => {
                        problems.push(format!(
                            "{id}: no readable topography (add a `home` override): `{jtop}` / `{ctop}`"
                        ));
                        continue;
                    }
                }
            }
        };

        let enemies_text =
            get("enemies").map_or_else(|| ct(|r| r.enemies.clone()), |o| o.value.clone());
        let allies_text =
            get("allies").map_or_else(|| ct(|r| r.allies.clone()), |o| o.value.clone());
        for f in ["enemies", "allies"] {
            if let Some(o) = get(f) {
                let old = if f == "enemies" {
                    ct(|r| r.enemies.clone())
                } else {
                    ct(|r| r.allies.clone())
                };
                note(f, "", &old, &o.value, &o.reason);
            }
        }
        lists.push(ArmyList {
            id: *id,
            name,
            dates,
            home,
            aggression,
            troops,
            enemies: Vec::new(),
            allies: Vec::new(),
        });
        // References are resolved once every list is known (below).
        refs.push((enemies_text, allies_text));
    }
    if !problems.is_empty() {
        return Err(format!(
            "{} lists cannot be built:\n{}",
            problems.len(),
            problems.join("\n")
        ));
    }

    // Resolve enemies and allies against the bundled ids.
    let known: Vec<ListId> = lists.iter().map(|l| l.id).collect();
    let resolves = |r: &ListId| known.iter().any(|k| r.covers(*k));
    for (l, (enemies_text, allies_text)) in lists.iter_mut().zip(refs) {
        let keep = |text: &str, field: &str, corr: &mut Vec<Correction>| -> Vec<Vec<ListId>> {
            let (options, junk) = parse_refs(text);
            let mut out = Vec::new();
            let mut dropped: Vec<String> = junk;
            let mut unlettered: Vec<String> = Vec::new();
            for o in options {
                let mut g = Vec::new();
                for r in o {
                    match r.parse::<ListId>() {
                        Ok(id) if resolves(&id) => {
                            if !g.contains(&id) {
                                g.push(id)
                            }
                        }
                        // `II/43b` for a list that has no variants: the list itself.
                        Ok(id) if id.variant.is_some() && known.contains(&id.list()) => {
                            unlettered.push(r.clone());
                            if !g.contains(&id.list()) {
                                g.push(id.list())
                            }
                        }
                        _ => dropped.push(r),
                    }
                }
                if !g.is_empty() {
                    out.push(g);
                }
            }
            if !unlettered.is_empty() {
                corr.push(Correction {
                    id: l.id.to_string(),
                    field: field.into(),
                    json: String::new(),
                    csv: text.into(),
                    chosen: format!("read {} without the letter", unlettered.join(" ")),
                    reason: "a variant letter on a list that has no variants".into(),
                });
            }
            if !dropped.is_empty() {
                corr.push(Correction {
                    id: l.id.to_string(),
                    field: field.into(),
                    json: String::new(),
                    csv: text.into(),
                    chosen: format!("dropped {}", dropped.join(" ")),
                    reason: "names no bundled list (words such as a sub-list's name in brackets are not kept)".into(),
                });
            }
            out
        };
        let enemies = keep(&enemies_text, "enemies", &mut corr);
        let mut flat: Vec<ListId> = Vec::new();
        for id in enemies.into_iter().flatten() {
            if !flat.contains(&id) {
                flat.push(id);
            }
        }
        l.enemies = flat;
        l.allies = keep(&allies_text, "allies", &mut corr)
            .into_iter()
            .map(|lists| AllyOption { lists })
            .collect();
    }

    // No source record silently dropped: every id of either source is a bundled list or was
    // dropped by a listed decision.
    let dropped_lists = corr.iter().filter(|c| c.field == "drop").count();
    let only_json = ids.iter().filter(|i| !csv.contains_key(i)).count();
    let only_csv = ids.iter().filter(|i| !json.contains_key(i)).count();
    let both = ids.len() - only_json - only_csv;
    if lists.len() + dropped_lists != ids.len() {
        return Err(format!(
            "{} ids but {} lists and {dropped_lists} dropped",
            ids.len(),
            lists.len()
        ));
    }

    let mut lists_json = String::from("{\"source\": \"generated by `cargo run -p xtask -- armies` from shared/data; see corrections.csv\",\n");
    lists_json.push_str(&format!(
        "\"counts\": {{\"json_records\": {n_json}, \"csv_records\": {n_csv}, \"in_both\": {both}, \"json_only\": {only_json}, \"csv_only\": {only_csv}, \"dropped\": {dropped_lists}, \"lists\": {}}},\n\"lists\": [\n",
        lists.len()
    ));
    for (i, l) in lists.iter().enumerate() {
        let line = serde_json::to_string(l).map_err(|e| e.to_string())?;
        lists_json.push_str(&line);
        lists_json.push_str(if i + 1 < lists.len() { ",\n" } else { "\n" });
    }
    lists_json.push_str("]}\n");

    let mut corrections_csv = String::from("id,field,json,csv,chosen,reason\n");
    for c in &corr {
        let row = [&c.id, &c.field, &c.json, &c.csv, &c.chosen, &c.reason]
            .map(|s| csv_field(s))
            .join(",");
        corrections_csv.push_str(&row);
        corrections_csv.push('\n');
    }
    Ok(Generated {
        lists_json,
        corrections_csv,
        lists: lists.len(),
    })
}

/// Write (or with `check`, compare) the data file and the corrections table.
pub fn write(root: &Path, check: bool) -> Result<(), String> {
    let g = generate(root)?;
    let dir = armies_dir(root);
    for (name, text) in [
        ("lists.json", &g.lists_json),
        ("corrections.csv", &g.corrections_csv),
    ] {
        let path = dir.join(name);
        if check {
            let old = fs::read_to_string(&path).unwrap_or_default();
            if &old != text {
                return Err(format!(
                    "{} is out of date: run `cargo run -p xtask -- armies`",
                    path.display()
                ));
            }
            println!("{} is up to date", path.display());
        } else {
            fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("wrote {} ({} lists)", path.display(), g.lists);
        }
    }
    Ok(())
}
