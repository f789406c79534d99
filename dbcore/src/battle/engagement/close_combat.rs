//! Close combat (§10): which pairs fight this bound (§10.2), and the situation of each pair with
//! its tactical factors and overlaps (§10.3, §10.4), rear support, flank and rear contacts and
//! the defence of a bank or a stronghold (§3.5, §4.7).

use super::*;

/// Every close combat to fight this bound (§10.2), in order of the pair's ids (lower id first).
///
/// Mutual front-to-front pairs fight each other. An element whose front edge is lined up against
/// an enemy's side or rear fights it only if that enemy has no frontal opponent and must turn to
/// face it ([`CloseCombatPair::turn_to_face`], §8.5); otherwise it counts against that enemy as a
/// flank or rear contact (see [`close_combat_situation`]). Each element assaulting a defended camp,
/// city or fort fights its defender (§4.7).
///
/// Worked out once per battle state when `ctx` comes from [`super::Battle::move_context`] (the
/// state's cache); the same answer either way.
pub fn close_combats(ctx: &MoveContext) -> Vec<CloseCombatPair> {
    match memoised_close_combats(ctx) {
        Some(known) => known.to_vec(),
        None => close_combats_uncached(ctx),
    }
}

/// The close combats the per-state memo keeps for `ctx`, when `ctx` carries the memo and it
/// describes `ctx` (worked out and kept on the first question).
pub(super) fn memoised_close_combats<'a>(ctx: &MoveContext<'a>) -> Option<&'a [CloseCombatPair]> {
    ctx.close_combat
        .and_then(|memo| memo.close_combats(ctx, || close_combats_uncached(ctx)))
}

/// [`close_combats`] lent to `f` instead of copied out: the per-state memo's own list when `ctx`
/// carries the memo (#15: a question about one pair copied the whole list to read it).
pub(crate) fn with_close_combats<R>(
    ctx: &MoveContext,
    f: impl FnOnce(&[CloseCombatPair]) -> R,
) -> R {
    match memoised_close_combats(ctx) {
        Some(known) => f(known),
        None => f(&close_combats_uncached(ctx)),
    }
}

/// [`close_combats`] worked out afresh.
pub(super) fn close_combats_uncached(ctx: &MoveContext) -> Vec<CloseCombatPair> {
    with_enemy_contacts(ctx, |contacts| close_combats_from(ctx, contacts))
}

/// Every contact between enemies in play, each element named by its index in `ctx.elements`
/// (as [`crate::contact::scan_enemy_contacts`] over the elements in play reports them), given to `f`: the
/// per-state memo's when `ctx` carries it (worked out once per state, shared by the close
/// combats and the conforming of §8.3 and §12.6), else scanned afresh.
pub(crate) fn with_enemy_contacts<R>(
    ctx: &MoveContext,
    f: impl FnOnce(&[ContactReport]) -> R,
) -> R {
    // Through the grid's neighbours and outlines when the context has the state's grid.
    let scan = || View::new(ctx).enemy_contacts();
    match ctx.close_combat.and_then(|m| m.enemy_contacts(ctx, scan)) {
        Some(known) => f(known),
        None => f(&scan()),
    }
}

/// [`close_combats`] from the contacts between enemies in play of `ctx`.
pub(super) fn close_combats_from(
    ctx: &MoveContext,
    contacts: &[ContactReport],
) -> Vec<CloseCombatPair> {
    let v = View::new(ctx);
    let n = ctx.elements.len();
    let mut mutual: Vec<(usize, usize)> = Vec::new();
    let mut unlined: Vec<(usize, usize)> = Vec::new();
    // (contactor, contacted, which edge of the contacted)
    let mut flank: Vec<(usize, usize, CombatContact)> = Vec::new();
    for r in contacts {
        if !r.same_side && must_conform(&r.contact) {
            unlined.push((r.a as usize, r.b as usize));
        }
        if r.same_side || !r.contact.lined_up {
            continue;
        }
        let (a, b) = (r.a as usize, r.b as usize);
        match r.contact.kind {
            ContactKind::FrontToFront => mutual.push((a, b)),
            ContactKind::FrontToSide => flank.push((a, b, CombatContact::FrontToSide)),
            ContactKind::SideToFront => flank.push((b, a, CombatContact::FrontToSide)),
            ContactKind::FrontToRear => flank.push((a, b, CombatContact::FrontToRear)),
            ContactKind::RearToFront => flank.push((b, a, CombatContact::FrontToRear)),
            _ => {}
        }
    }
    let mut opponent: Vec<Option<usize>> = vec![None; n];
    let mut front_engaged = vec![false; n];
    let mut pairs: Vec<(usize, usize, CombatContact, bool)> = Vec::new();
    for &(a, b) in &mutual {
        opponent[a] = Some(b);
        opponent[b] = Some(a);
        front_engaged[a] = true;
        front_engaged[b] = true;
        pairs.push((a, b, CombatContact::FrontToFront, false));
    }
    for &(x, _, _) in &flank {
        front_engaged[x] = true;
    }
    // §8.3: front edges that could not line up fight as if in full contact, when neither has a
    // lined-up opponent.
    for &(a, b) in &unlined {
        if opponent[a].is_some() || opponent[b].is_some() {
            continue;
        }
        opponent[a] = Some(b);
        opponent[b] = Some(a);
        front_engaged[a] = true;
        front_engaged[b] = true;
        pairs.push((a, b, CombatContact::NotLinedUp, false));
    }
    let id = |i: usize| ctx.elements[i].id;
    flank.sort_by_key(|&(x, y, _)| (id(y), id(x)));
    for (x, y, contact) in flank {
        if opponent[x].is_some() || opponent[y].is_some() {
            continue;
        }
        if front_engaged[y] || v.gives_rear_support(y, &opponent) {
            continue;
        }
        opponent[x] = Some(y);
        opponent[y] = Some(x);
        pairs.push((x, y, contact, true));
    }
    // Assaults on places that only civilians defend: the assaulter fights their reserved id.
    let mut civilian_pairs: Vec<CloseCombatPair> = Vec::new();
    for (si, s) in ctx.strongholds.iter().enumerate() {
        let place = v.place(s);
        let Some(def) = v.defender(si) else {
            if let Some(civ) = s.civilians {
                for x in v.assaulters(si) {
                    if opponent[x].is_none() {
                        civilian_pairs.push(CloseCombatPair {
                            a: ctx.elements[x].id,
                            b: civ,
                            contact: CombatContact::Assault { place },
                            turn_to_face: None,
                        });
                    }
                }
            }
            continue;
        };
        for x in v.assaulters(si) {
            if opponent[x].is_some() {
                continue;
            }
            pairs.push((x, def, CombatContact::Assault { place }, false));
        }
    }
    let mut out: Vec<CloseCombatPair> = pairs
        .into_iter()
        .map(|(a, b, contact, turn)| {
            let (a, b) = match contact {
                CombatContact::FrontToFront | CombatContact::NotLinedUp if id(b) < id(a) => (b, a),
                _ => (a, b),
            };
            CloseCombatPair {
                a: id(a),
                b: id(b),
                contact,
                turn_to_face: turn.then(|| id(b)),
            }
        })
        .collect();
    out.extend(civilian_pairs);
    out.sort_by_key(|p| (p.a.min(p.b), p.a.max(p.b)));
    out
}

/// The stronghold whose civilians (denizens or camp followers) fight under `id`, if any.
pub(super) fn civilians_of(ctx: &MoveContext, id: ElementId) -> Option<usize> {
    ctx.strongholds.iter().position(|s| s.civilians == Some(id))
}

/// An assault on a place that only its civilians defend (§4.2, §4.6, §4.7): the assaulter uses
/// its factor against foot; the denizens (in a City) or camp followers (in a camp) defend it
/// with +2, less 1 for each further assaulter.
pub(super) fn civilians_situation(
    ctx: &MoveContext,
    v: &View,
    attacker: ElementId,
    si: usize,
    civilians_first: bool,
) -> Result<Situation, EngagementError> {
    let s = &ctx.strongholds[si];
    let civ = s.civilians.unwrap_or(attacker);
    let ia = v.index(attacker)?;
    v.in_play(ia)?;
    if ctx.elements[ia].army == s.army {
        return Err(EngagementError::NotEnemies {
            a: attacker,
            b: civ,
        });
    }
    let fights = close_combats(ctx)
        .iter()
        .any(|p| p.a == attacker && p.b == civ);
    if !fights {
        return Err(EngagementError::NotInContact {
            a: attacker,
            b: civ,
        });
    }
    let place = v.place(s);
    let extra = v.assaulters(si).into_iter().filter(|&x| x != ia).count();
    let extra = u8::try_from(extra)
        .unwrap_or(u8::MAX)
        .min(ctx.config.combat.max_extra_assaulters);
    let kind = ElementKind::new(if place == Stronghold::City {
        BaseKind::Denizens
    } else {
        BaseKind::CampFollowers
    });
    let defender = Combatant::new(kind).defending(place, extra);
    let e = &ctx.elements[ia];
    let mut assaulter = Combatant::new(e.kind).assaulting(place);
    assaulter.general = e.general;
    assaulter.going = v.going(ia)?;
    Ok(if civilians_first {
        Situation::close_combat(defender, assaulter)
    } else {
        Situation::close_combat(assaulter, defender)
    })
}

/// The close combat between `a` and `b` as the table shows it (§10.1–10.4, §3.3, §3.5, §4.7):
/// `a` becomes the situation's side A.
///
/// `a` and `b` must be one of the [`close_combats`] of this bound, either way round (a pair still
/// waiting to turn to face is accepted). The flank and rear contacts counted for each are the side and rear
/// edges overlapped by (§10.4) or touched by the front edge of an enemy other than its opponent.
pub fn close_combat_situation(
    ctx: &MoveContext,
    a: ElementId,
    b: ElementId,
) -> Result<Situation, EngagementError> {
    pair_situation(ctx, a, b, false)
}

/// [`close_combat_situation`] of a pair the caller found in [`close_combats`] of this very
/// `ctx` (either way round): the same situation, without looking for the pair among the close
/// combats again (#15: a second search of the list, a tenth of a combat derived from the table).
pub(crate) fn close_combat_situation_of_known_pair(
    ctx: &MoveContext,
    a: ElementId,
    b: ElementId,
) -> Result<Situation, EngagementError> {
    pair_situation(ctx, a, b, true)
}

/// The body of [`close_combat_situation`]; `known` when the pair is one of the close combats of
/// `ctx`, which the §10.2 test below would find.
pub(super) fn pair_situation(
    ctx: &MoveContext,
    a: ElementId,
    b: ElementId,
    known: bool,
) -> Result<Situation, EngagementError> {
    let v = View::new(ctx);
    if let Some(si) = civilians_of(ctx, b) {
        return civilians_situation(ctx, &v, a, si, false);
    }
    if let Some(si) = civilians_of(ctx, a) {
        return civilians_situation(ctx, &v, b, si, true);
    }
    let ia = v.index(a)?;
    let ib = v.index(b)?;
    v.in_play(ia)?;
    v.in_play(ib)?;
    if ctx.elements[ia].army == ctx.elements[ib].army {
        return Err(EngagementError::NotEnemies { a, b });
    }
    // §10.2: only the combats of this bound, so a flank attacker on an enemy that already has a
    // frontal opponent is refused (it counts as that enemy's flank contact instead).
    let fights = known
        || with_close_combats(ctx, |pairs| {
            pairs
                .iter()
                .any(|p| (p.a == a && p.b == b) || (p.a == b && p.b == a))
        });
    if !fights {
        return Err(EngagementError::NotInContact { a, b });
    }
    let ha = v.held_place(ia);
    let hb = v.held_place(ib);
    // holding[0] is a's, holding[1] is b's.
    let mut holding = [Holding::Field, Holding::Field];
    for (d, def, att, held) in [(1usize, ib, ia, hb), (0usize, ia, ib, ha)] {
        let Some(si) = held else { continue };
        let s = &ctx.strongholds[si];
        let place = v.place(s);
        if s.sacker == Some(ctx.elements[def].id) {
            // §4.2: a sacker has no garrison factor; we read that it fights its attacker as in
            // the open, without the walls, and its attacker is no assaulter.
            continue;
        }
        if !front_touches_perimeter(&v.rects[att], &s.perimeter) {
            // A reading (§4.6, §4.7): a camp has no walls, and only front-edge contact with its
            // perimeter assaults it; an enemy meeting an element inside a camp otherwise (its
            // front not along the perimeter, not lined up) fights it as in the open.
            if place == Stronghold::Camp {
                continue;
            }
            return Err(EngagementError::UnmatchedStronghold {
                defender: ctx.elements[def].id,
                opponent: ctx.elements[att].id,
                place,
            });
        }
        let extra = v.assaulters(si).into_iter().filter(|&x| x != att).count();
        let extra = u8::try_from(extra)
            .unwrap_or(u8::MAX)
            .min(ctx.config.combat.max_extra_assaulters);
        holding[d] = Holding::Defending {
            place,
            extra_assaulters: extra,
        };
        holding[1 - d] = Holding::Assaulting { place };
    }
    // The enemy contacts of the state (the memo's, already worked out for the close combats
    // above) answer every question about enemies; only friends are classified here (#15).
    with_enemy_contacts(ctx, |contacts| {
        let ca = v.close_combatant(ia, ib, holding[0], contacts)?;
        let cb = v.close_combatant(ib, ia, holding[1], contacts)?;
        Ok(Situation::close_combat(ca, cb))
    })
}

impl<'c, 'a> View<'c, 'a> {
    /// Element `i` stands directly behind a friend that has a frontal opponent (§8.5).
    pub(super) fn gives_rear_support(&self, i: usize, opponent: &[Option<usize>]) -> bool {
        self.find_touching(i, |j| {
            (self.friends(i, j) && opponent[j].is_some() && self.directly_behind(i, j))
                .then_some(())
        })
        .is_some()
    }

    /// Element `i`'s front edge is in full contact with friend `j`'s rear edge, facing the same way.
    pub(super) fn directly_behind(&self, i: usize, j: usize) -> bool {
        self.same_facing(i, j)
            && self
                .contact(i, j)
                .is_some_and(|c| c.kind == ContactKind::FrontToRear && c.lined_up)
    }

    /// The friends supporting `i` (§10.3): those in mutual side-edge contact, same facing,
    /// front edges level (by id), and the first by id of those directly behind it (front edge
    /// in full contact with its rear edge, same facing) not themselves in close combat. Each
    /// friend of the same facing is classified once for both questions (the contact seen from
    /// the friend is this one swapped, `classify_contact`'s promise).
    pub(super) fn supporters(
        &self,
        i: usize,
    ) -> Result<(Supporters, Option<Supporter>), EngagementError> {
        // The friends abreast, on the stack up to eight (#15: a vector allocated for the first),
        // and the one behind with the least id.
        let mut abreast = [0usize; 8];
        let mut abreast_n = 0;
        let mut abreast_more: Vec<usize> = Vec::new();
        let mut beside = |j: usize| match abreast.get_mut(abreast_n) {
            Some(slot) => {
                *slot = j;
                abreast_n += 1;
            }
            None => abreast_more.push(j),
        };
        let mut behind: Option<usize> = None;
        let id = |j: usize| self.ctx.elements[j].id;
        // `i`'s corners once, as `ElementRect::corner` works each out (#15).
        let mut corners_i = None;
        self.find_touching(i, |j| {
            if !self.friends(i, j) || !self.same_facing(i, j) {
                return None::<()>;
            }
            let ci = *corners_i.get_or_insert_with(|| self.corners(i));
            let cj = self.corners(j);
            // Front-left and front-right are corners 0 and 1, rear-right and rear-left 2 and 3.
            let side_corners = ci[0].near(cj[1]) || ci[1].near(cj[0]);
            if side_corners && self.forward(i) == self.forward(j) {
                // Facing exactly the same way with a front corner on the other's: their sides
                // meet along the shallower depth and nothing else does, so the contact is side
                // to side (and not behind) without classifying it (#15; debug builds check).
                debug_assert!(
                    self.contact(i, j)
                        .is_some_and(|c| c.kind == ContactKind::SideToSide),
                    "friends abreast whose contact is not side to side"
                );
                beside(j);
                return None;
            }
            // A friend behind stands with its front corners at `i`'s rear ones (`lined_up` of a
            // rear-to-front contact); a friend neither abreast nor near that is passed over
            // unclassified. The test is looser than `near`, so whatever the contact could
            // count is still classified.
            let loose = |p: Point, q: Point| {
                (p.x - q.x).abs() <= 2.0 * TOLERANCE && (p.y - q.y).abs() <= 2.0 * TOLERANCE
            };
            let may_be_behind = loose(ci[3], cj[0]) && loose(ci[2], cj[1]);
            if !(side_corners || may_be_behind) {
                return None;
            }
            let c = self.contact(i, j)?;
            if c.kind == ContactKind::SideToSide && side_corners {
                beside(j);
            }
            // `j` directly behind `i`: its front edge against `i`'s rear edge, lined up.
            if c.kind == ContactKind::RearToFront
                && c.lined_up
                && !in_close_combat(self.ctx, j)
                && behind.is_none_or(|k| id(j) < id(k))
            {
                behind = Some(j);
            }
            None
        });
        let beside: &mut [usize] = if abreast_more.is_empty() {
            &mut abreast[..abreast_n]
        } else {
            abreast_more.extend_from_slice(&abreast[..abreast_n]);
            &mut abreast_more
        };
        beside.sort_by_key(|&j| id(j));
        let mut side = Supporters::new();
        for &mut j in beside {
            side.push(Supporter {
                kind: self.ctx.elements[j].kind,
                going: self.going(j)?,
            });
        }
        let rear = match behind {
            Some(j) => Some(Supporter {
                kind: self.ctx.elements[j].kind,
                going: self.going(j)?,
            }),
            None => None,
        };
        Ok((side, rear))
    }

    /// How many of `i`'s side and rear edges are overlapped by, or touched by the front edge of,
    /// an enemy other than `opponent` (§10.3, §10.4, §17.21).
    pub(super) fn flank_rear_contacts(
        &self,
        i: usize,
        opponent: usize,
        contacts: &[ContactReport],
    ) -> u8 {
        let t = self.ctx.elements[i].kind.troop_type();
        let ps_or_sch = matches!(t, TroopType::Ps | TroopType::SCh);
        // The edges counted, as a set of bits (one per edge, [`edge_bit`]): no allocation (#15).
        let mut edges = 0u8;
        let mut insert = |e: Edge| edges |= edge_bit(e);
        let mut with_opponent = None;
        for (j, c) in contacts_of(contacts, i) {
            if j == opponent {
                with_opponent = Some(c);
                continue;
            }
            match (c.kind, c.a) {
                (ContactKind::SideToFront, Some(ContactPart::Edge(e))) => {
                    insert(e);
                }
                (ContactKind::RearToFront, _) => {
                    insert(Edge::Rear);
                }
                _ => {}
            }
            // The contact seen from `j` is this one swapped (`classify_contact`'s promise), so
            // the overlap question does not classify the pair again.
            if let Some(k) =
                overlap_of_contact(c.swapped(), || front_engaged(contacts, j), ps_or_sch)
            {
                match (k, c.a) {
                    (OverlapKind::SideEdges, Some(ContactPart::Edge(e))) => {
                        insert(e);
                    }
                    (OverlapKind::FrontCorners, Some(ContactPart::Corner(Corner::FrontLeft))) => {
                        insert(Edge::Left);
                    }
                    (OverlapKind::FrontCorners, Some(ContactPart::Corner(Corner::FrontRight))) => {
                        insert(Edge::Right);
                    }
                    _ => {}
                }
            }
        }
        // §8.3: the contacted element of a pair that could not line up fights as if overlapped.
        let not_lined_up = with_opponent.is_some_and(|c| must_conform(&c));
        let overlapped_as_contacted = not_lined_up && self.ctx.elements[i].army != self.ctx.army;
        if self.ctx.config.combat.battlefield_edge_overlaps
            && !ps_or_sch
            && !matches!(t, TroopType::Cv | TroopType::LH)
        {
            let b = &self.ctx.battlefield.board;
            // The corners once, by `ElementRect::edge`'s arithmetic with one sine and cosine
            // (the grid's when there is one).
            let corners = self.corners(i);
            for e in [Edge::Left, Edge::Right] {
                let s = match e {
                    Edge::Left => Segment::new(corners[3], corners[0]),
                    _ => Segment::new(corners[1], corners[2]),
                };
                let along = |f: fn(Point) -> f64, at: f64| {
                    (f(s.a) - at).abs() <= TOLERANCE && (f(s.b) - at).abs() <= TOLERANCE
                };
                if along(|p| p.x, 0.0)
                    || along(|p| p.x, b.width)
                    || along(|p| p.y, 0.0)
                    || along(|p| p.y, b.depth)
                {
                    insert(e);
                }
            }
        }
        (edges.count_ones() as usize + usize::from(overlapped_as_contacted)).min(3) as u8
    }

    /// Entirely on land, against an opponent at least partly in a non-paltry river, off-road
    /// (§3.5, §17.22).
    pub(super) fn defends_bank(&self, i: usize, o: usize) -> bool {
        let bf = self.ctx.battlefield;
        matches!(
            self.ctx.river,
            Some(RiverState::Slows | RiverState::SlowsNarrow)
        ) && bf.river_under(&self.rects[i]).is_none()
            && bf.river_under(&self.rects[o]).is_some()
            && !bf.move_along_road(&[self.rects[o].pose.front_mid()])
    }

    /// Element `i` fighting `o` in close combat, `contacts` being every contact between enemies
    /// in play of the state ([`with_enemy_contacts`]).
    pub(super) fn close_combatant(
        &self,
        i: usize,
        o: usize,
        holding: Holding,
        contacts: &[ContactReport],
    ) -> Result<Combatant, EngagementError> {
        let e = &self.ctx.elements[i];
        let going = self.going(i)?;
        // The outlines' boxes kept by the state's memo (#15), as `going` reads them.
        let boxes = self.ctx.close_combat.map(|m| m.area_boxes(self.ctx));
        let uphill = self
            .ctx
            .battlefield
            .is_uphill_of_boxed(&self.rects[i], &self.rects[o], boxes);
        let defending_bank = self.defends_bank(i, o);
        let (side_supporters, rear_supporter) = self.supporters(i)?;
        Ok(Combatant {
            kind: e.kind,
            general: e.general,
            cinc_bonus: false,
            going,
            uphill,
            defending_bank,
            holding,
            side_supporters,
            rear_supporter,
            flank_rear_contacts: self.flank_rear_contacts(i, o, contacts),
            demoralised: false,
        })
    }
}

/// The contacts of element `i` among `contacts` (every contact between enemies in play, by
/// element index, as [`with_enemy_contacts`] gives them), each with the other element and seen
/// from `i`: the report's contact, or its swap when `i` is the report's second element (the same
/// bits a classification from `i`'s side gives).
pub(super) fn contacts_of(
    contacts: &[ContactReport],
    i: usize,
) -> impl Iterator<Item = (usize, crate::contact::Contact)> + '_ {
    contacts.iter().filter_map(move |r| {
        if r.a as usize == i {
            Some((r.b as usize, r.contact.clone()))
        } else if r.b as usize == i {
            Some((r.a as usize, r.contact.swapped()))
        } else {
            None
        }
    })
}

/// Element `i`'s front edge is lined up against an enemy (§8.2 a–c), read from every contact
/// between enemies in play (see [`contacts_of`]).
pub(super) fn front_engaged(contacts: &[ContactReport], i: usize) -> bool {
    contacts_of(contacts, i).any(|(_, c)| {
        c.lined_up
            && matches!(
                c.kind,
                ContactKind::FrontToFront | ContactKind::FrontToSide | ContactKind::FrontToRear
            )
    })
}

/// One bit for each edge, for a set of edges without allocation.
pub(super) fn edge_bit(e: Edge) -> u8 {
    match e {
        Edge::Front => 1,
        Edge::Right => 2,
        Edge::Rear => 4,
        Edge::Left => 8,
    }
}
