//! Reading internally tagged enums (`{"action": "roll_pips", "die": 4}`) without buffering.
//!
//! serde's derived reader of an internally tagged enum cannot know the variant before it has
//! seen the tag, so it first copies the whole object into a buffer of its own and reads the
//! variant from that: every action, move order and status of a saved battle is copied once
//! more (and a move order inside an action twice). The reader here reads the object's keys up
//! to the tag, keeping those before it as [`serde_json::Value`]s (none when dbcore wrote the
//! object: it writes the tag first), reads the tag's value as the variant's name, then the
//! fields: those kept, then the rest of the object straight from the input. Every order of
//! keys is read as before, and a fault in a field after the tag names that field, where
//! serde's reader named only the enum.
//!
//! Each enum keeps its derived `Serialize` and schema (the spelling is unchanged); its
//! `Deserialize` goes through [`deserialize`] with a private twin of the enum that serde
//! derives as externally tagged (`#[serde(remote = ...)]`, which the compiler checks against
//! the enum's own variants and fields). `dbcore/tests/suite/tagged_json.rs` holds the readers to
//! serde's own.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, IntoDeserializer, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};

/// An internally tagged enum read through its externally tagged twin.
pub(crate) trait Tagged<'de>: Sized {
    /// The enum's name, as serde's messages give it ("internally tagged enum Action").
    const NAME: &'static str;
    /// The tag's field name.
    const TAG: &'static str;
    /// Read the enum through its twin from `d`, which answers `deserialize_enum` only.
    fn from_variant<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

/// Read the internally tagged enum `T` from `d`.
pub(crate) fn deserialize<'de, T: Tagged<'de>, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_any(TaggedVisitor(PhantomData))
}

struct TaggedVisitor<T>(PhantomData<T>);

impl<'de, T: Tagged<'de>> Visitor<'de> for TaggedVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "internally tagged enum {}", T::NAME)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        // The fields before the tag, kept as values: none when dbcore wrote the object.
        let mut before: Vec<(String, serde_json::Value)> = Vec::new();
        loop {
            match map.next_key_seed(Key(T::TAG))? {
                None => return Err(de::Error::missing_field(T::TAG)),
                Some(None) => break,
                Some(Some(key)) => {
                    let value = map.next_value()?;
                    before.push((key, value));
                }
            }
        }
        let name = T::NAME;
        if before.is_empty() {
            T::from_variant(Variant {
                rest: MapRest(OneTag(map, T::TAG)),
                name,
            })
        } else {
            let rest = Chain {
                before: before.into_iter(),
                pending: None,
                map: OneTag(map, T::TAG),
            };
            T::from_variant(Variant {
                rest: MapRest(rest),
                name,
            })
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::from_variant(Variant {
            rest: SeqRest(seq, T::TAG),
            name: T::NAME,
        })
    }
}

/// A key of the object: `None` for the tag, the key itself otherwise.
struct Key(&'static str);

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Option<String>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Option<String>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok((v != self.0).then(|| v.to_string()))
    }
}

/// The rest of an object after its tag, refusing the tag a second time as serde's reader does
/// (the variant's own reader would ignore it as an unknown field).
struct OneTag<A>(A, &'static str);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for OneTag<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.0.next_key_seed(KeyName)? {
            None => Ok(None),
            Some(key) if key == self.1 => Err(de::Error::duplicate_field(self.1)),
            Some(key) => {
                let key: de::value::StrDeserializer<'_, A::Error> =
                    key.as_ref().into_deserializer();
                seed.deserialize(key).map(Some)
            }
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// A key, borrowed from the input when it can be.
struct KeyName;

impl<'de> DeserializeSeed<'de> for KeyName {
    type Value = std::borrow::Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyName {
    type Value = std::borrow::Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(std::borrow::Cow::Borrowed(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(std::borrow::Cow::Owned(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(std::borrow::Cow::Owned(v))
    }
}

/// The fields that came before the tag (kept as values), then the rest of the object, which
/// is next its tag's value.
struct Chain<A> {
    before: std::vec::IntoIter<(String, serde_json::Value)>,
    pending: Option<serde_json::Value>,
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Chain<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.before.next() {
            Some((key, value)) => {
                self.pending = Some(value);
                let key: de::value::StringDeserializer<A::Error> = key.into_deserializer();
                seed.deserialize(key).map(Some)
            }
            None => self.map.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.pending.take() {
            Some(value) => seed.deserialize(value).map_err(de::Error::custom),
            None => self.map.next_value_seed(seed),
        }
    }
}

/// What follows the tag: the rest of an object, or of an array whose first item is the tag (a
/// spelling serde's reader takes too).
trait Rest<'de>: Sized {
    type Error: de::Error;
    /// Read the tag's value with `seed`.
    fn tag<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Self::Error>;
    /// Check that nothing follows: a unit variant has no fields.
    fn ignore(self) -> Result<(), Self::Error>;
    /// Read it as the fields of a struct variant.
    fn fields<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error>;
    /// Read it as the one value of a newtype variant.
    fn newtype<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Self::Error>;
}

/// The rest of an object.
struct MapRest<A>(A);

impl<'de, A: MapAccess<'de>> Rest<'de> for MapRest<A> {
    type Error = A::Error;
    fn tag<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        // The key just read was the tag.
        self.0.next_value_seed(seed)
    }
    fn ignore(mut self) -> Result<(), A::Error> {
        // A unit variant has no fields: any other key is refused, as the twins'
        // `deny_unknown_fields` refuses one in a struct variant.
        match self.0.next_key_seed(KeyName)? {
            None => Ok(()),
            Some(key) => Err(de::Error::unknown_field(&key, &[])),
        }
    }
    fn fields<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self.0)
    }
    fn newtype<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        seed.deserialize(de::value::MapAccessDeserializer::new(self.0))
    }
}

/// The rest of an array, and the tag's name.
struct SeqRest<A>(A, &'static str);

impl<'de, A: SeqAccess<'de>> Rest<'de> for SeqRest<A> {
    type Error = A::Error;
    fn tag<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0
            .next_element_seed(seed)?
            .ok_or_else(|| de::Error::missing_field(self.1))
    }
    fn ignore(mut self) -> Result<(), A::Error> {
        match self.0.next_element::<IgnoredAny>()? {
            None => Ok(()),
            Some(_) => Err(de::Error::custom(format_args!(
                "the variant after `{}` has no fields",
                self.1
            ))),
        }
    }
    fn fields<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_seq(self.0)
    }
    fn newtype<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        seed.deserialize(de::value::SeqAccessDeserializer::new(self.0))
    }
}

/// The variant named by the tag's value, its fields what follows: what the externally tagged
/// twin reads as `{tag: {fields}}`.
struct Variant<R> {
    rest: R,
    name: &'static str,
}

impl<'de, R: Rest<'de>> Deserializer<'de> for Variant<R> {
    type Error = R::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, R::Error> {
        visitor.visit_enum(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, R::Error> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

impl<'de, R: Rest<'de>> EnumAccess<'de> for Variant<R> {
    type Error = R::Error;
    type Variant = Fields<R>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        mut self,
        seed: V,
    ) -> Result<(V::Value, Fields<R>), R::Error> {
        // The tag's value read by the twin's own reader of variant names, in place.
        let v = self.rest.tag(seed)?;
        Ok((
            v,
            Fields {
                rest: self.rest,
                name: self.name,
            },
        ))
    }
}

/// The fields of the variant: what follows the tag.
struct Fields<R> {
    rest: R,
    name: &'static str,
}

impl<'de, R: Rest<'de>> VariantAccess<'de> for Fields<R> {
    type Error = R::Error;

    fn unit_variant(self) -> Result<(), R::Error> {
        // As serde's own reader with `deny_unknown_fields`: a unit variant has no fields.
        self.rest.ignore()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, R::Error> {
        self.rest.newtype(seed)
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        _visitor: V,
    ) -> Result<V::Value, R::Error> {
        Err(de::Error::custom(format_args!(
            "internally tagged enum {} has no tuple variant",
            self.name
        )))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, R::Error> {
        self.rest.fields(visitor)
    }
}

/// `impl Deserialize` for an internally tagged enum through its twin `$twin`.
macro_rules! tagged_deserialize {
    ($ty:ty, $twin:ident, $tag:literal, $name:literal) => {
        impl<'de> $crate::tagged::Tagged<'de> for $ty {
            const NAME: &'static str = $name;
            const TAG: &'static str = $tag;
            fn from_variant<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $twin::deserialize(d)
            }
        }
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::tagged::deserialize(d)
            }
        }
    };
}

mod twins {
    //! The externally tagged twins: the same variants and fields, with the same `default`s.
    #![allow(dead_code)]

    use serde::Deserialize;

    use crate::battle::bound::{Action, Phase};
    use crate::battle::movement::{ContactWanted, Flank, GroupStep, MoveOrder};
    use crate::battle::setup::ElementId;
    use crate::battle::state::{LossCause, Status};
    use crate::dice::DieScore;
    use crate::geometry::Pose;

    #[derive(Deserialize)]
    #[serde(remote = "Action", rename_all = "snake_case", deny_unknown_fields)]
    enum ActionTwin {
        RollPips {
            die: DieScore,
        },
        RollCommandPips {
            dice: Vec<DieScore>,
        },
        DiceRiver {
            die: DieScore,
        },
        Move {
            order: MoveOrder,
        },
        EndMovement,
        Shoot {
            shooter: ElementId,
            target: ElementId,
            #[serde(default)]
            support: Vec<ElementId>,
            dice: [DieScore; 2],
            #[serde(default)]
            recoil_own_depth: Vec<ElementId>,
            #[serde(default)]
            shoots_back: bool,
        },
        Sally {
            city: usize,
            pose: Pose,
        },
        Land {
            ids: Vec<ElementId>,
            poses: Vec<Pose>,
        },
        Fight {
            a: ElementId,
            b: ElementId,
            dice: [DieScore; 2],
            #[serde(default)]
            recoil_own_depth: Vec<ElementId>,
            #[serde(default)]
            c_in_c_bonus: Vec<ElementId>,
        },
        Hold {
            ids: Vec<ElementId>,
        },
        Flee,
    }
    tagged_deserialize!(Action, ActionTwin, "action", "Action");

    #[derive(Deserialize)]
    #[serde(remote = "MoveOrder", rename_all = "snake_case", deny_unknown_fields)]
    enum MoveOrderTwin {
        Element {
            id: ElementId,
            path: Vec<Pose>,
        },
        Group {
            ids: Vec<ElementId>,
            steps: Vec<GroupStep>,
        },
        Column {
            ids: Vec<ElementId>,
            path: Vec<Pose>,
        },
        IntoContact {
            ids: Vec<ElementId>,
            target: ElementId,
            contact: ContactWanted,
        },
        Dismount {
            id: ElementId,
        },
        ThroughCity {
            ids: Vec<ElementId>,
            city: usize,
        },
    }
    tagged_deserialize!(MoveOrder, MoveOrderTwin, "type", "MoveOrder");

    #[derive(Deserialize)]
    #[serde(remote = "GroupStep", rename_all = "snake_case", deny_unknown_fields)]
    enum GroupStepTwin {
        Advance { distance: f64 },
        Wheel { pivot: Flank, degrees: f64 },
    }
    tagged_deserialize!(GroupStep, GroupStepTwin, "step", "GroupStep");

    #[derive(Deserialize)]
    #[serde(remote = "Phase", rename_all = "snake_case", deny_unknown_fields)]
    enum PhaseTwin {
        AwaitingPips,
        Movement,
        Shooting,
        CloseCombat,
        Finished { winner: Option<usize> },
    }
    tagged_deserialize!(Phase, PhaseTwin, "phase", "Phase");

    #[derive(Deserialize)]
    #[serde(remote = "Status", rename_all = "snake_case", deny_unknown_fields)]
    enum StatusTwin {
        InPlay,
        Lost { cause: LossCause },
        Afloat,
    }
    tagged_deserialize!(Status, StatusTwin, "status", "Status");
}
