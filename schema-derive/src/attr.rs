//! `#[schema(...)]` attributes, parsed with the span of each key kept for errors.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned as _;
use syn::{Attribute, Expr, Ident, LitByteStr, LitInt, LitStr, Path, Token, Type};

use crate::ast::Errors;
use crate::condition::Condition;
use crate::suggest::did_you_mean;

/// A value and where it was written.
#[derive(Clone)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// A binary layout's byte order: `big`, `little`, or `endian = param`, the
/// value of a context parameter of type `Endian` (one set of types for a
/// body one format stores little-endian and another big-endian).
#[derive(Clone, PartialEq, Eq)]
pub enum ByteOrder {
    Big,
    Little,
    Param(Ident),
}

impl ByteOrder {
    pub fn name(&self) -> String {
        match self {
            ByteOrder::Big => "big".to_owned(),
            ByteOrder::Little => "little".to_owned(),
            ByteOrder::Param(param) => format!("endian = {param}"),
        }
    }
}

#[derive(Default, Clone)]
pub struct Container {
    /// `binary(...)`: the attributes only the binary encoding has, beside
    /// `text`, on a type with both encodings.
    pub binary: Option<Span>,
    pub byte_order: Option<Spanned<ByteOrder>>,
    /// The struct is an IFF `FORM` of this type.
    pub form: Option<Spanned<[u8; 4]>>,
    /// The struct is an IFF chunk with this tag, its fields the payload.
    pub chunk: Option<Spanned<[u8; 4]>>,
    /// `text`: a text layout (lines and tokens) instead of a binary one.
    pub text: Option<Span>,
    /// `one_line`: a text record whose fields are the tokens of one line.
    pub one_line: Option<Span>,
    /// `comments`: text from this record on may hold `//` comments anywhere.
    pub comments: Option<Span>,
    /// `crate = "path"`: where the runtime is, when not at `::formats`.
    pub krate: Option<Spanned<Path>>,
    /// `context(name: Type, ...)`: values the type needs from its parent.
    pub context: Option<Spanned<Vec<ContextParam>>>,
    /// `binary(context(name: Type, ...))`: values only the binary encoding
    /// needs (a byte order); the binary view holds them in `context`.
    pub binary_context: Option<Spanned<Vec<ContextParam>>>,
    /// In the text view of a type with both encodings: the parameters only
    /// the binary one takes, named so that a text use of one is refused as
    /// such.
    pub binary_only: Vec<Ident>,
    /// An enum: `tag = Type`, a leading value of this type chooses the variant.
    pub tag: Option<Spanned<Box<Type>>>,
    /// An enum: `bits = N` beside `tag = Word`: the word's first N bits
    /// choose the variant, whose value holds the rest.
    pub bits: Option<Spanned<u32>>,
    /// An enum: `select = param`, this context parameter chooses the variant.
    pub select: Option<Spanned<Ident>>,
    /// A struct: `check = path`, a function the whole value must satisfy
    /// once every field is read (a rule across fields, such as indices into
    /// a list read after them).
    pub check: Option<Spanned<Check>>,
}

/// A declared context parameter: `records: u32`.
#[derive(Clone)]
pub struct ContextParam {
    pub ident: Ident,
    pub ty: Type,
}

/// A value passed to a nested type's context parameter: `records = count`
/// (or `records` alone, for a value of the same name), or a constant:
/// `order = Endian::Big`.
#[derive(Clone)]
pub struct ContextArg {
    /// The nested type's parameter.
    pub param: Ident,
    pub value: ContextValue,
}

/// What a [`ContextArg`] passes.
#[derive(Clone)]
pub enum ContextValue {
    /// An earlier field or one of the enclosing type's own parameters.
    Name(Ident),
    /// `len(list)`: how many elements an earlier list field (or a
    /// parameter) holds, as a `usize`; 0 for an absent `Option`.
    Len(Ident),
    /// Any other expression: a constant (`Endian::Big`, a literal), or a
    /// Rust expression over earlier fields and the type's parameters.
    Expr(Box<Expr>),
}

impl std::fmt::Display for ContextValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ContextValue::Name(name) => write!(f, "{name}"),
            ContextValue::Len(list) => write!(f, "len({list})"),
            ContextValue::Expr(constant) => {
                let text = quote::ToTokens::to_token_stream(constant).to_string();
                f.write_str(&text.replace(" :: ", "::"))
            }
        }
    }
}

impl ContextValue {
    /// The field or parameter passed, if a name is.
    pub fn name(&self) -> Option<&Ident> {
        match self {
            ContextValue::Name(name) | ContextValue::Len(name) => Some(name),
            ContextValue::Expr(_) => None,
        }
    }
}

/// `#[schema(...)]` on an enum variant.
#[derive(Default)]
pub struct Variant {
    /// `when = EXPR`: the tag or selector value that chooses the variant.
    pub when: Option<Spanned<Expr>>,
    /// `other`: the variant for every other tag, holding the tag itself.
    pub other: Option<Span>,
    /// `keyword = "Mesh (absolute)"`: the phrase a text keyword stands for.
    pub keyword: Option<Spanned<LitStr>>,
    /// `context(...)`: values passed to the variant's payload.
    pub pass: Option<Spanned<Vec<ContextArg>>>,
    /// An enum of IFF elements: `form = "TYPE"`, the variant is a `FORM` of
    /// this type holding its value.
    pub form: Option<Spanned<[u8; 4]>>,
    /// An enum of IFF elements: `chunk = "TAG"`, the variant is a chunk
    /// with this tag holding its value.
    pub chunk: Option<Spanned<[u8; 4]>>,
}

#[derive(Clone)]
pub enum StringKind {
    Pascal,
    NullTerminated,
    FixedWidth(LitInt),
    /// `prefix = T` on a `RawString`: a length of this integer type, then
    /// the bytes (set by lowering, from the field's `prefix`).
    Prefixed(Box<Type>),
}

/// How many elements a `Vec` field holds.
#[derive(Clone)]
pub enum Repeat {
    /// Binary: a count of this integer type right before the elements
    /// (`prefix = u32`).
    Prefix(Box<Type>),
    /// Text: a decimal count line (or token) right before the elements
    /// (`prefix` alone).
    CountLine,
    /// `count = expr`: the count stored in an earlier `Count<_>` field
    /// (which the writer fills in), or the value of an expression over
    /// earlier fields and context parameters (a bare name, or any Rust
    /// expression), which the writer checks the length against.
    Count(Box<Expr>),
    /// Elements until the input (file, enclosing chunk, text) ends.
    ToEnd,
    /// `until = expr`: elements until one for which the function `expr`
    /// gives true, that one included.
    Until(Box<Expr>),
}

impl Repeat {
    /// The one name a `count = name` gives, when it gives a bare name.
    pub fn count_name(&self) -> Option<&Ident> {
        match self {
            Repeat::Count(expr) => bare_name(expr),
            _ => None,
        }
    }
}

/// The identifier an expression is, when it is one alone.
pub fn bare_name(expr: &Expr) -> Option<&Ident> {
    match expr {
        Expr::Path(path) if path.qself.is_none() => path.path.get_ident(),
        _ => None,
    }
}

/// When an `Option` field is present.
#[derive(Clone)]
pub enum Presence {
    /// A flag of this integer type right before the value: 0 absent, 1 present.
    Flag(Box<Type>),
    /// Present when a condition over earlier fields and context parameters
    /// holds (`present_if = version >= 300`; a bare name: it is not 0).
    If(Condition),
    /// Text: present unless the file holds this word instead (`none = "*"`).
    NoneWord(LitStr),
    /// Not an attribute: an `Option` without one, in IFF, present when the
    /// next child begins as its value does (its chunk's tag, its form's type).
    NextTag,
}

/// How one element is written, when not by its type's own impls: the
/// binary string encodings and the text forms exclude each other, so they
/// are one slot.
#[derive(Clone)]
pub enum Encoding {
    String(StringKind),
    Text(TextForm),
}

/// Text: the one way a field's value is written, when not as tokens.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum TextForm {
    /// `line`: a whole line as a string.
    Line,
    /// `comment`: a `//` line.
    Comment,
    /// `vector`: tokens between `|` and `|`.
    Vector,
    /// `angle_brackets`: a name written `<with spaces>`.
    AngleBrackets,
}

impl TextForm {
    pub fn key(self) -> &'static str {
        match self {
            TextForm::Line => "line",
            TextForm::Comment => "comment",
            TextForm::Vector => "vector",
            TextForm::AngleBrackets => "angle_brackets",
        }
    }
}

/// A rule the value must satisfy once read.
#[derive(Clone)]
pub enum Check {
    /// `check = path(value, ...)`: a function given the value, then earlier
    /// fields, counts or context parameters.
    Function { path: Path, args: Vec<Ident> },
    /// `check = expr, "message"`: a condition over the value (by its
    /// field's name), earlier fields and context parameters, and what a
    /// refusal says.
    Inline { expr: Box<Expr>, message: LitStr },
}

/// How long a `Padding` field is.
#[derive(Clone, Copy)]
pub enum PadLength {
    /// `align = N`: to the next multiple of N from the start of the
    /// enclosing block.
    Align(u64),
    /// `pad = N`: exactly N bytes.
    Bytes(u64),
}

/// A stored value that the writer converts the field's value to, and the
/// reader from (`map = S` by `From`, `try_map = S` by `TryFrom`).
#[derive(Clone)]
pub struct Map {
    pub stored: Box<Type>,
    /// `try_map`: the conversions may fail.
    pub fallible: bool,
}

/// A constant: a suffixed integer literal or a byte string (binary), or a
/// string of words (text).
#[derive(Clone)]
pub enum Constant {
    Int(LitInt),
    Bytes(LitByteStr),
    Text(LitStr),
}

#[derive(Default)]
pub struct Field {
    pub byte_order: Option<Spanned<ByteOrder>>,
    pub encoding: Option<Spanned<Encoding>>,
    pub repeat: Option<Spanned<Repeat>>,
    pub presence: Option<Spanned<Presence>>,
    pub magic: Option<Spanned<Constant>>,
    pub with: Option<Spanned<Path>>,
    /// The field is stored as the payload of an IFF chunk with this tag
    /// (with the fields right after it that name the same tag).
    pub chunk: Option<Spanned<[u8; 4]>>,
    /// The field is stored as the children of an IFF `FORM` of this type.
    pub form: Option<Spanned<[u8; 4]>>,
    /// Text: `style`, the file's `TextStyle`.
    pub style: Option<Span>,
    /// Text: `same_line`, the field's tokens continue the previous field's line.
    pub same_line: Option<Span>,
    /// Text: `flow`, a list whose elements' tokens may share lines or break
    /// across them.
    pub flow: Option<Span>,
    /// Text: `check = path(args)`, run on the value once it is read.
    pub check: Option<Spanned<Check>>,
    /// `context(...)`: values passed to the field type's context.
    pub pass: Option<Spanned<Vec<ContextArg>>>,
    /// `size = expr`: the value is read from a block of that many bytes.
    pub size: Option<Spanned<Expr>>,
    /// `calc = expr`: a stored value the writer computes.
    pub calc: Option<Spanned<Expr>>,
    /// `keep`: with `calc`, a value found that disagrees is kept.
    pub keep: Option<Span>,
    /// `map = S` or `try_map = S`.
    pub map: Option<Spanned<Map>>,
    /// `align = N` or `pad = N`, on a `Padding` field.
    pub padding: Option<Spanned<PadLength>>,
    /// `word = u16`: the field begins a word of bit fields of this type.
    pub word: Option<Spanned<Box<Type>>>,
    /// `bits = N`: the field takes N bits of its word.
    pub bits: Option<Spanned<u32>>,
    /// `lsb_first`: the word's first field takes its least significant
    /// bits (else its most).
    pub lsb_first: Option<Span>,
    /// `offset = T`: the value (each element's, for a list) lies at an
    /// offset stored here as a `T`.
    pub offset: Option<Spanned<Box<Type>>>,
    /// `from = file` or `from = field`: what the offsets count from.
    pub from: Option<Spanned<Ident>>,
}

/// The groups of one encoding's keys a type's or a field's keys may hold.
const GROUPS: &[&str] = &["binary(...)", "text(...)"];

/// Sets what one key of a type says.
type ContainerKey = fn(&mut Container, &ParseNestedMeta, &str) -> syn::Result<()>;

/// Every key of a type (`context`, `binary(...)` and `text(...)` aside),
/// with what it sets: what the parser looks keys up in, and what an
/// unknown key's message lists.
const CONTAINER_KEYS: &[(&str, ContainerKey)] = &[
    ("big", Container::set_byte_order),
    ("little", Container::set_byte_order),
    ("endian", Container::set_byte_order),
    ("form", Container::set_frame),
    ("chunk", Container::set_frame),
    ("text", |container, meta, key| {
        set_flag(&mut container.text, meta.path.span(), key)
    }),
    ("one_line", |container, meta, key| {
        set_flag(&mut container.one_line, meta.path.span(), key)
    }),
    ("comments", |container, meta, key| {
        set_flag(&mut container.comments, meta.path.span(), key)
    }),
    ("crate", |container, meta, _| {
        let span = meta.path.span();
        set_key_once(&mut container.krate, parse_crate_path(meta)?, span, "crate")
    }),
    ("tag", |container, meta, _| {
        let span = meta.path.span();
        let ty: Type = meta.value()?.parse()?;
        set_key_once(&mut container.tag, Box::new(ty), span, "tag")
    }),
    ("bits", |container, meta, _| {
        let span = meta.path.span();
        set_key_once(&mut container.bits, parse_bits(meta)?, span, "bits")
    }),
    ("check", |container, meta, _| {
        let span = meta.path.span();
        set_key_once(&mut container.check, parse_check(meta)?, span, "check")
    }),
    ("select", |container, meta, _| {
        let span = meta.path.span();
        let param: Ident = meta.value()?.parse()?;
        set_key_once(&mut container.select, param, span, "select")
    }),
];

/// Sets what one key of a variant says.
type VariantKey = fn(&mut Variant, &ParseNestedMeta, &str) -> syn::Result<()>;

/// Every key of a variant, with what it sets.
const VARIANT_KEYS: &[(&str, VariantKey)] = &[
    ("when", |variant, meta, _| {
        let span = meta.path.span();
        let value: Expr = meta.value()?.parse()?;
        set_once_on(&mut variant.when, value, span, "a variant", "`when`")
    }),
    ("other", |variant, meta, key| {
        set_flag(&mut variant.other, meta.path.span(), key)
    }),
    ("keyword", |variant, meta, _| {
        let span = meta.path.span();
        let phrase: LitStr = meta.value()?.parse()?;
        set_once_on(&mut variant.keyword, phrase, span, "a variant", "`keyword`")
    }),
    ("context", |variant, meta, _| {
        let span = meta.path.span();
        let args = parse_args(meta)?;
        set_once_on(&mut variant.pass, args, span, "a variant", "`context`")
    }),
    ("form", Variant::set_frame),
    ("chunk", Variant::set_frame),
];

impl Container {
    /// What the type's keys say, each mistake in `errors` (the keys that
    /// parse are kept, so that later checks see them).
    pub fn parse(attrs: &[Attribute], errors: &mut Errors) -> Self {
        let mut container = Container::default();
        let mut bare = Vec::new();
        for attr in schema_attrs(attrs) {
            let keys = attr.parse_nested_meta(collecting(errors, |meta, errors| {
                container.parse_key(meta, Place::Bare, &mut bare, errors)
            }));
            errors.take(keys);
        }
        if container.is_twin() {
            for (span, key, kind) in bare {
                errors.push(syn::Error::new(span, misplaced_on_twin(&key, kind)));
            }
        }
        container
    }

    /// Whether the type has both encodings: `text` beside `binary(...)`.
    pub fn is_twin(&self) -> bool {
        self.binary.is_some() && self.text.is_some()
    }

    /// The encodings the type has.
    pub fn encodings(&self) -> Encodings {
        match (self.binary.is_some(), self.text.is_some()) {
            (true, true) => Encodings::Both,
            (_, true) => Encodings::One(Kind::Text),
            _ => Encodings::One(Kind::Binary),
        }
    }

    /// The attributes one encoding of a type with both sees: the shared
    /// ones and its own. A type with one encoding keeps every attribute,
    /// so that one belonging to the other encoding is refused there.
    pub fn view(&self, kind: Kind) -> Container {
        let mut view = self.clone();
        view.binary_context = None;
        if let Some(binary_context) = &self.binary_context {
            match kind {
                Kind::Binary => {
                    let mut params = self
                        .context
                        .as_ref()
                        .map_or_else(Vec::new, |shared| shared.value.clone());
                    params.extend(binary_context.value.iter().cloned());
                    view.context = Some(Spanned {
                        value: params,
                        span: self
                            .context
                            .as_ref()
                            .map_or(binary_context.span, |shared| shared.span),
                    });
                }
                Kind::Text => {
                    view.binary_only = binary_context
                        .value
                        .iter()
                        .map(|param| param.ident.clone())
                        .collect();
                }
            }
        }
        if self.is_twin() {
            match kind {
                Kind::Binary => {
                    view.text = None;
                    view.one_line = None;
                    view.comments = None;
                }
                Kind::Text => {
                    view.byte_order = None;
                    view.form = None;
                    view.chunk = None;
                }
            }
        }
        view
    }

    /// One key, written bare or inside `binary(...)` / `text(...)`; `bare`
    /// collects the keys of one encoding written bare, refused on a type
    /// with both.
    fn parse_key(
        &mut self,
        meta: &ParseNestedMeta,
        place: Place,
        bare: &mut Vec<(Span, String, Kind)>,
        errors: &mut Errors,
    ) -> syn::Result<()> {
        let key = key_of(meta)?;
        let span = meta.path.span();
        if let Some(kind) = group_kind(meta, &key, place)? {
            let slot = match kind {
                Kind::Binary => &mut self.binary,
                Kind::Text => &mut self.text,
            };
            set_flag(slot, span, &key)?;
            return meta.parse_nested_meta(collecting(errors, |inner, errors| {
                self.parse_key(inner, Place::In(kind), bare, errors)
            }));
        }
        if let ("text", Place::In(group)) = (key.as_str(), place) {
            return Err(syn::Error::new(
                span,
                format!(
                    "`text` says the type has a text encoding: write it outside `{}(...)`",
                    group.name()
                ),
            ));
        }
        if key == "context" {
            return self.parse_context(meta, place);
        }
        let Some((_, set)) = CONTAINER_KEYS.iter().find(|(name, _)| *name == key) else {
            let names = CONTAINER_KEYS.iter().map(|(name, _)| *name);
            return Err(unknown_key(meta, &key, names.chain(["context"]), GROUPS));
        };
        let class = match key.as_str() {
            "big" | "little" | "endian" | "form" | "chunk" | "bits" => Class::Only(Kind::Binary),
            "one_line" | "comments" => Class::Only(Kind::Text),
            _ => Class::Shared,
        };
        check_placement(span, &key, class, place)?;
        if let (Place::Bare, Class::Only(kind)) = (place, class) {
            bare.push((span, key.clone(), kind));
        }
        set(self, meta, &key)
    }

    fn set_byte_order(&mut self, meta: &ParseNestedMeta, key: &str) -> syn::Result<()> {
        set_byte_order(&mut self.byte_order, meta, key)
    }

    fn set_frame(&mut self, meta: &ParseNestedMeta, key: &str) -> syn::Result<()> {
        let span = meta.path.span();
        let tag = parse_tag(meta)?;
        if self.form.is_some() || self.chunk.is_some() {
            return Err(syn::Error::new(span, "a type is one `form` or one `chunk`"));
        }
        let slot = if key == "form" {
            &mut self.form
        } else {
            &mut self.chunk
        };
        *slot = Some(Spanned { value: tag, span });
        Ok(())
    }
}

impl Container {
    /// `context(...)` written bare declares parameters every encoding
    /// takes; inside `binary(...)`, parameters only the binary encoding
    /// takes (a byte order), which its text encoding is never given.
    fn parse_context(&mut self, meta: &ParseNestedMeta, place: Place) -> syn::Result<()> {
        let span = meta.path.span();
        let slot =
            match place {
                Place::Bare => &mut self.context,
                Place::In(Kind::Binary) => &mut self.binary_context,
                Place::In(Kind::Text) => return Err(syn::Error::new(
                    span,
                    "a context parameter only the text encoding takes is not supported: declare \
                     it outside `text(...)`, where both encodings take it",
                )),
            };
        if slot.is_some() {
            let place = match place {
                Place::Bare => "",
                Place::In(_) => " in `binary(...)`",
            };
            return Err(syn::Error::new(
                span,
                format!("`context` is given twice{place}"),
            ));
        }
        let params = parse_params(meta)?;
        *slot = Some(Spanned {
            value: params,
            span,
        });
        Ok(())
    }
}

impl Variant {
    /// What a variant's keys say, each mistake in `errors`.
    pub fn parse(attrs: &[Attribute], errors: &mut Errors) -> Self {
        let mut variant = Variant::default();
        for attr in schema_attrs(attrs) {
            let keys = attr.parse_nested_meta(collecting(errors, |meta, _| {
                let key = key_of(meta)?;
                match VARIANT_KEYS.iter().find(|(name, _)| *name == key) {
                    Some((_, set)) => set(&mut variant, meta, &key),
                    None => Err(unknown_key(
                        meta,
                        &key,
                        VARIANT_KEYS.iter().map(|(name, _)| *name),
                        &[],
                    )),
                }
            }));
            errors.take(keys);
        }
        variant
    }

    fn set_frame(&mut self, meta: &ParseNestedMeta, key: &str) -> syn::Result<()> {
        let span = meta.path.span();
        let tag = parse_tag(meta)?;
        if self.form.is_some() || self.chunk.is_some() {
            return Err(syn::Error::new(
                span,
                "a variant is one `form` or one `chunk`",
            ));
        }
        let slot = if key == "form" {
            &mut self.form
        } else {
            &mut self.chunk
        };
        *slot = Some(Spanned { value: tag, span });
        Ok(())
    }
}

/// `context(records: u32, mode: Mode)`.
fn parse_params(meta: &ParseNestedMeta) -> syn::Result<Vec<ContextParam>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let params = Punctuated::<ContextParam, Token![,]>::parse_terminated_with(
        &content,
        |input: ParseStream| {
            let ident: Ident = input.parse()?;
            input.parse::<Token![:]>()?;
            let ty: Type = input.parse()?;
            Ok(ContextParam { ident, ty })
        },
    )?;
    if params.is_empty() {
        return Err(meta.error("`context` declares at least one parameter: `context(name: Type)`"));
    }
    Ok(params.into_iter().collect())
}

/// The list `len(list)` names, for a call of that form.
fn len_of(call: &syn::ExprCall) -> Option<Ident> {
    let Expr::Path(function) = call.func.as_ref() else {
        return None;
    };
    if !function.path.is_ident("len") || call.args.len() != 1 {
        return None;
    }
    match call.args.first() {
        Some(Expr::Path(list)) if list.qself.is_none() => list.path.get_ident().cloned(),
        _ => None,
    }
}

/// `context(records = count, mode, vertices = len(positions))`.
fn parse_args(meta: &ParseNestedMeta) -> syn::Result<Vec<ContextArg>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let args = Punctuated::<ContextArg, Token![,]>::parse_terminated_with(
        &content,
        |input: ParseStream| {
            let param: Ident = input.parse()?;
            let value = if input.peek(Token![=]) {
                input.parse::<Token![=]>()?;
                match input.parse::<Expr>()? {
                    Expr::Path(path) if path.qself.is_none() && path.path.get_ident().is_some() => {
                        match path.path.get_ident() {
                            Some(name) => ContextValue::Name(name.clone()),
                            None => ContextValue::Expr(Box::new(Expr::Path(path))),
                        }
                    }
                    Expr::Call(call) => match len_of(&call) {
                        Some(list) => ContextValue::Len(list),
                        None => ContextValue::Expr(Box::new(Expr::Call(call))),
                    },
                    constant => ContextValue::Expr(Box::new(constant)),
                }
            } else {
                ContextValue::Name(param.clone())
            };
            Ok(ContextArg { param, value })
        },
    )?;
    if args.is_empty() {
        return Err(meta.error("`context` passes at least one value: `context(name = field)`"));
    }
    Ok(args.into_iter().collect())
}

impl Field {
    /// The field's attributes as each encoding of its type sees them: on a
    /// type with both, the shared keys go to both and `binary(...)` /
    /// `text(...)` to one; on a type with one, everything goes to it.
    /// Each mistake goes to `errors`.
    pub fn parse(attrs: &[Attribute], encodings: Encodings, errors: &mut Errors) -> FieldViews {
        let mut views = FieldViews::default();
        for attr in schema_attrs(attrs) {
            let keys = attr.parse_nested_meta(collecting(errors, |meta, errors| {
                views.parse_key(meta, Place::Bare, encodings, errors)
            }));
            errors.take(keys);
        }
        views
    }
}

/// A field's attributes, per encoding.
#[derive(Default)]
pub struct FieldViews {
    pub binary: Field,
    pub text: Field,
}

impl FieldViews {
    fn parse_key(
        &mut self,
        meta: &ParseNestedMeta,
        place: Place,
        encodings: Encodings,
        errors: &mut Errors,
    ) -> syn::Result<()> {
        let key = key_of(meta)?;
        let span = meta.path.span();
        if let Some(kind) = group_kind(meta, &key, place)? {
            if !encodings.has(kind) {
                return Err(syn::Error::new(
                    span,
                    format!(
                        "`{key}(...)` holds what only the {kind} encoding has, and the type has no \
                         {kind} encoding",
                        kind = kind.name()
                    ),
                ));
            }
            return meta.parse_nested_meta(collecting(errors, |inner, errors| {
                self.parse_key(inner, Place::In(kind), encodings, errors)
            }));
        }
        let item = FieldKey::parse(meta, &key)?;
        let class = item.class();
        // What a field passes may differ per encoding: a parameter only the
        // nested type's binary encoding takes is passed in `binary(...)`.
        if !matches!((&item, place), (FieldKey::Pass(_), Place::In(_))) {
            check_placement(span, &key, class, place)?;
        }
        if let (FieldKey::Pass(args), Encodings::Both) = (&item, encodings) {
            self.add_pass(args, place, span);
            return Ok(());
        }
        let own = match encodings {
            Encodings::One(kind) => Some(kind),
            Encodings::Both => None,
        };
        match (place, class, own) {
            (Place::In(kind), _, _) | (Place::Bare, _, Some(kind)) => {
                self.view(kind).apply(item, meta, &key)
            }
            (Place::Bare, Class::Shared, None) => {
                self.binary.apply(item.clone(), meta, &key)?;
                self.text.apply(item, meta, &key)
            }
            // On a type with both encodings, `prefix = T` counts the
            // elements in both: a `T` in binary, a count line in text.
            (Place::Bare, Class::Only(Kind::Binary), None)
                if matches!(item, FieldKey::Repeat(Repeat::Prefix(_))) =>
            {
                self.binary.apply(item, meta, &key)?;
                self.text
                    .apply(FieldKey::Repeat(Repeat::CountLine), meta, &key)
            }
            (Place::Bare, Class::Only(Kind::Text), None)
                if matches!(item, FieldKey::Repeat(Repeat::CountLine)) =>
            {
                Err(syn::Error::new(
                    span,
                    "on a type with both encodings a count before the elements gives its binary \
                     integer type, `prefix = u32`; the text writes it as a number",
                ))
            }
            (Place::Bare, Class::Only(kind), None) => {
                Err(syn::Error::new(span, misplaced_on_twin(&key, kind)))
            }
        }
    }

    /// On a type with both encodings, what `context(...)` passes in both
    /// and what `binary(context(...))` passes in one add up (a value passed
    /// twice is refused where the values resolve).
    fn add_pass(&mut self, args: &[ContextArg], place: Place, span: Span) {
        let kinds = match place {
            Place::In(kind) => vec![kind],
            Place::Bare => vec![Kind::Binary, Kind::Text],
        };
        for kind in kinds {
            match &mut self.view(kind).pass {
                Some(pass) => pass.value.extend(args.iter().cloned()),
                slot @ None => {
                    *slot = Some(Spanned {
                        value: args.to_vec(),
                        span,
                    })
                }
            }
        }
    }

    fn view(&mut self, kind: Kind) -> &mut Field {
        match kind {
            Kind::Binary => &mut self.binary,
            Kind::Text => &mut self.text,
        }
    }
}

/// One field key, parsed once: a key both encodings share goes to both.
#[derive(Clone)]
enum FieldKey {
    ByteOrder,
    Encoding(Encoding),
    Repeat(Repeat),
    Pass(Vec<ContextArg>),
    Presence(Presence),
    Magic(Constant),
    With(Path),
    Frame([u8; 4]),
    Style,
    SameLine,
    Flow,
    Check(Check),
    Size(Box<Expr>),
    Calc(Box<Expr>),
    Keep,
    Map(Map),
    Padding(PadLength),
    Word(Box<Type>),
    Bits(u32),
    LsbFirst,
    Offset(Box<Type>),
    From(Ident),
}

/// Parses one field key's value.
type FieldKeyParser = fn(&ParseNestedMeta, &str) -> syn::Result<FieldKey>;

/// Every field key (`binary(...)` and `text(...)` aside), with its
/// parser: what the parser looks keys up in, and what an unknown key's
/// message lists.
const FIELD_KEYS: &[(&str, FieldKeyParser)] = &[
    // Parsed where it is set, which names the conflicting order.
    ("big", |_, _| Ok(FieldKey::ByteOrder)),
    ("little", |_, _| Ok(FieldKey::ByteOrder)),
    ("endian", |_, _| Ok(FieldKey::ByteOrder)),
    ("pascal", |_, _| {
        Ok(FieldKey::Encoding(Encoding::String(StringKind::Pascal)))
    }),
    ("null_terminated", |_, _| {
        Ok(FieldKey::Encoding(Encoding::String(
            StringKind::NullTerminated,
        )))
    }),
    ("fixed_width", |meta, _| {
        let width: LitInt = meta.value()?.parse()?;
        width.base10_parse::<u64>()?;
        Ok(FieldKey::Encoding(Encoding::String(
            StringKind::FixedWidth(width),
        )))
    }),
    // A text count is a decimal number: `prefix` alone.
    ("prefix", |meta, _| {
        Ok(FieldKey::Repeat(if meta.input.peek(Token![=]) {
            Repeat::Prefix(Box::new(meta.value()?.parse()?))
        } else {
            Repeat::CountLine
        }))
    }),
    ("count", |meta, _| {
        Ok(FieldKey::Repeat(Repeat::Count(meta.value()?.parse()?)))
    }),
    ("to_end", |_, _| Ok(FieldKey::Repeat(Repeat::ToEnd))),
    ("until", |meta, _| {
        Ok(FieldKey::Repeat(Repeat::Until(meta.value()?.parse()?)))
    }),
    ("flag", |meta, _| {
        Ok(FieldKey::Presence(Presence::Flag(Box::new(
            meta.value()?.parse()?,
        ))))
    }),
    ("present_if", |meta, _| {
        Ok(FieldKey::Presence(Presence::If(meta.value()?.parse()?)))
    }),
    ("magic", |meta, _| {
        Ok(FieldKey::Magic(parse_constant(meta)?))
    }),
    ("with", |meta, _| Ok(FieldKey::With(meta.value()?.parse()?))),
    ("chunk", |meta, _| Ok(FieldKey::Frame(parse_tag(meta)?))),
    ("form", |meta, _| Ok(FieldKey::Frame(parse_tag(meta)?))),
    ("size", |meta, _| Ok(FieldKey::Size(meta.value()?.parse()?))),
    ("calc", |meta, _| Ok(FieldKey::Calc(meta.value()?.parse()?))),
    ("keep", |_, _| Ok(FieldKey::Keep)),
    ("map", parse_map),
    ("try_map", parse_map),
    ("align", parse_padding),
    ("pad", parse_padding),
    ("word", |meta, _| {
        Ok(FieldKey::Word(Box::new(meta.value()?.parse()?)))
    }),
    ("bits", |meta, _| Ok(FieldKey::Bits(parse_bits(meta)?))),
    ("lsb_first", |_, _| Ok(FieldKey::LsbFirst)),
    ("offset", |meta, _| {
        Ok(FieldKey::Offset(Box::new(meta.value()?.parse()?)))
    }),
    ("from", |meta, _| Ok(FieldKey::From(meta.value()?.parse()?))),
    ("line", |_, _| {
        Ok(FieldKey::Encoding(Encoding::Text(TextForm::Line)))
    }),
    ("comment", |_, _| {
        Ok(FieldKey::Encoding(Encoding::Text(TextForm::Comment)))
    }),
    ("vector", |_, _| {
        Ok(FieldKey::Encoding(Encoding::Text(TextForm::Vector)))
    }),
    ("angle_brackets", |_, _| {
        Ok(FieldKey::Encoding(Encoding::Text(TextForm::AngleBrackets)))
    }),
    ("style", |_, _| Ok(FieldKey::Style)),
    ("none", |meta, _| {
        Ok(FieldKey::Presence(Presence::NoneWord(
            meta.value()?.parse()?,
        )))
    }),
    ("same_line", |_, _| Ok(FieldKey::SameLine)),
    ("flow", |_, _| Ok(FieldKey::Flow)),
    ("check", |meta, _| Ok(FieldKey::Check(parse_check(meta)?))),
    ("context", |meta, _| Ok(FieldKey::Pass(parse_args(meta)?))),
];

/// `map = S` or `try_map = S`.
fn parse_map(meta: &ParseNestedMeta, key: &str) -> syn::Result<FieldKey> {
    Ok(FieldKey::Map(Map {
        stored: meta.value()?.parse()?,
        fallible: key == "try_map",
    }))
}

/// `align = N` or `pad = N`.
fn parse_padding(meta: &ParseNestedMeta, key: &str) -> syn::Result<FieldKey> {
    let length: LitInt = meta.value()?.parse()?;
    let bytes = length.base10_parse::<u64>()?;
    if key == "align" && bytes == 0 {
        return Err(syn::Error::new(
            length.span(),
            "`align = N` aligns to multiples of N bytes: N is 1 or more",
        ));
    }
    Ok(FieldKey::Padding(if key == "align" {
        PadLength::Align(bytes)
    } else {
        PadLength::Bytes(bytes)
    }))
}

impl FieldKey {
    fn parse(meta: &ParseNestedMeta, key: &str) -> syn::Result<Self> {
        match FIELD_KEYS.iter().find(|(name, _)| *name == key) {
            Some((_, parse)) => parse(meta, key),
            None => Err(unknown_key(
                meta,
                key,
                FIELD_KEYS.iter().map(|(name, _)| *name),
                GROUPS,
            )),
        }
    }

    /// Which encodings the key means something in.
    fn class(&self) -> Class {
        match self {
            FieldKey::ByteOrder
            | FieldKey::Encoding(Encoding::String(_))
            | FieldKey::Repeat(Repeat::Prefix(_))
            | FieldKey::Presence(Presence::Flag(_))
            | FieldKey::With(_)
            | FieldKey::Frame(_)
            | FieldKey::Repeat(Repeat::Until(_))
            | FieldKey::Size(_)
            | FieldKey::Calc(_)
            | FieldKey::Keep
            | FieldKey::Map(_)
            | FieldKey::Padding(_)
            | FieldKey::Word(_)
            | FieldKey::Bits(_)
            | FieldKey::LsbFirst
            | FieldKey::Offset(_)
            | FieldKey::From(_) => Class::Only(Kind::Binary),
            FieldKey::Magic(Constant::Text(_)) => Class::Only(Kind::Text),
            FieldKey::Magic(_) => Class::Only(Kind::Binary),
            FieldKey::Encoding(Encoding::Text(_))
            | FieldKey::Repeat(Repeat::CountLine)
            | FieldKey::Presence(Presence::NoneWord(_))
            | FieldKey::Style
            | FieldKey::SameLine
            | FieldKey::Flow => Class::Only(Kind::Text),
            FieldKey::Repeat(Repeat::Count(_) | Repeat::ToEnd)
            | FieldKey::Presence(Presence::If(_) | Presence::NextTag)
            | FieldKey::Pass(_)
            | FieldKey::Check(_) => Class::Shared,
        }
    }
}

impl Field {
    /// Sets what `item` (the key `key`, parsed from `meta`) says.
    fn apply(&mut self, item: FieldKey, meta: &ParseNestedMeta, key: &str) -> syn::Result<()> {
        let span = meta.path.span();
        match item {
            FieldKey::ByteOrder => set_byte_order(&mut self.byte_order, meta, key),
            FieldKey::Encoding(encoding) => set_encoding(&mut self.encoding, encoding, span),
            FieldKey::Repeat(repeat) => set_once(&mut self.repeat, repeat, span, "count"),
            FieldKey::Pass(args) => set_once(&mut self.pass, args, span, "`context`"),
            FieldKey::Presence(presence) => {
                set_once(&mut self.presence, presence, span, "presence")
            }
            FieldKey::Magic(constant) => set_once(&mut self.magic, constant, span, "magic"),
            FieldKey::With(path) => set_once(&mut self.with, path, span, "with"),
            FieldKey::Frame(tag) => {
                if self.chunk.is_some() || self.form.is_some() {
                    return Err(syn::Error::new(
                        span,
                        "a field is in one `chunk` or one `form`",
                    ));
                }
                let slot = if key == "chunk" {
                    &mut self.chunk
                } else {
                    &mut self.form
                };
                *slot = Some(Spanned { value: tag, span });
                Ok(())
            }
            FieldKey::Style => set_flag(&mut self.style, span, key),
            FieldKey::SameLine => set_flag(&mut self.same_line, span, key),
            FieldKey::Flow => set_flag(&mut self.flow, span, key),
            FieldKey::Check(check) => set_once(&mut self.check, check, span, "`check`"),
            FieldKey::Size(size) => set_once(&mut self.size, *size, span, "`size`"),
            FieldKey::Calc(calc) => set_once(&mut self.calc, *calc, span, "`calc`"),
            FieldKey::Keep => set_flag(&mut self.keep, span, key),
            FieldKey::Map(map) => set_once(&mut self.map, map, span, "`map` or `try_map`"),
            FieldKey::Padding(length) => {
                set_once(&mut self.padding, length, span, "`align` or `pad`")
            }
            FieldKey::Word(ty) => set_once(&mut self.word, ty, span, "`word`"),
            FieldKey::Bits(bits) => set_once(&mut self.bits, bits, span, "`bits`"),
            FieldKey::LsbFirst => set_flag(&mut self.lsb_first, span, key),
            FieldKey::Offset(ty) => set_once(&mut self.offset, ty, span, "`offset`"),
            FieldKey::From(base) => set_once(&mut self.from, base, span, "`from`"),
        }
    }
}

/// One of a type's two encodings.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Binary,
    Text,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Binary => "binary",
            Kind::Text => "text",
        }
    }
}

/// The encodings a type has.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Encodings {
    One(Kind),
    /// `text` beside `binary(...)`: one set of types, two encodings.
    Both,
}

impl Encodings {
    pub fn has(self, kind: Kind) -> bool {
        match self {
            Encodings::One(own) => own == kind,
            Encodings::Both => true,
        }
    }
}

/// Where a key is written: bare, or inside `binary(...)` / `text(...)`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Bare,
    In(Kind),
}

/// Which encodings a key means something in.
#[derive(Clone, Copy)]
enum Class {
    /// The same in both (`present_if`, `context`, `check`, counts).
    Shared,
    Only(Kind),
}

/// `binary(...)` or `text(...)` written bare opens a group of that
/// encoding's keys; groups do not nest.
fn group_kind(meta: &ParseNestedMeta, key: &str, place: Place) -> syn::Result<Option<Kind>> {
    let kind = match key {
        "binary" => Kind::Binary,
        "text" if meta.input.peek(syn::token::Paren) => Kind::Text,
        _ => return Ok(None),
    };
    match place {
        Place::Bare if meta.input.peek(syn::token::Paren) => Ok(Some(kind)),
        Place::Bare => Err(meta.error(
            "`binary` holds what only the binary encoding has: `binary(little)`, \
             `binary(pascal)`",
        )),
        Place::In(outer) => Err(meta.error(format!(
            "`{key}(...)` inside `{}(...)`: write each encoding's group on its own",
            outer.name()
        ))),
    }
}

/// A key of one encoding inside the other's group, or a shared key inside
/// a group, is refused at the key.
fn check_placement(span: Span, key: &str, class: Class, place: Place) -> syn::Result<()> {
    let Place::In(group) = place else {
        return Ok(());
    };
    let message = match class {
        Class::Shared => format!(
            "`{key}` means the same in both encodings: write it outside `{}(...)`",
            group.name()
        ),
        Class::Only(kind) if kind != group => format!(
            "`{key}` is a {kind} attribute: write it in `{kind}(...)`",
            kind = kind.name()
        ),
        Class::Only(_) => return Ok(()),
    };
    Err(syn::Error::new(span, message))
}

/// The refusal of a key of one encoding written bare on a type with both.
fn misplaced_on_twin(key: &str, kind: Kind) -> String {
    format!(
        "on a type with both encodings, `{key}` is said of the {kind} one alone: write it in \
         `{kind}(...)`",
        kind = kind.name()
    )
}

fn schema_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|attr| attr.path().is_ident("schema"))
}

fn key_of(meta: &ParseNestedMeta) -> syn::Result<String> {
    meta.path
        .get_ident()
        .map(Ident::to_string)
        .ok_or_else(|| meta.error("expected a schema attribute key"))
}

/// A key no table holds: the closest one suggested, and all of them
/// (`keys`, then `groups`).
fn unknown_key<'k>(
    meta: &ParseNestedMeta,
    key: &str,
    keys: impl Iterator<Item = &'k str> + Clone,
    groups: &[&'k str],
) -> syn::Error {
    let suggestion = did_you_mean(key, keys.clone());
    let expected: Vec<String> = keys
        .chain(groups.iter().copied())
        .map(|name| format!("`{name}`"))
        .collect();
    meta.error(format!(
        "unknown schema attribute `{key}`{suggestion}; expected one of {}",
        expected.join(", ")
    ))
}

/// A callback for `parse_nested_meta` running `parse_key` on each key of
/// a list: a key's error is collected in `errors` and the rest of its
/// item skipped, so that the keys after a bad one are read too.
fn collecting<'e>(
    errors: &'e mut Errors,
    mut parse_key: impl FnMut(&ParseNestedMeta, &mut Errors) -> syn::Result<()> + 'e,
) -> impl FnMut(ParseNestedMeta) -> syn::Result<()> + 'e {
    move |meta| {
        if let Err(error) = parse_key(&meta, errors) {
            errors.push(error);
            while !meta.input.is_empty() && !meta.input.peek(Token![,]) {
                meta.input.parse::<proc_macro2::TokenTree>()?;
            }
        }
        Ok(())
    }
}

fn set_byte_order(
    slot: &mut Option<Spanned<ByteOrder>>,
    meta: &ParseNestedMeta,
    key: &str,
) -> syn::Result<()> {
    let order = match key {
        "big" => ByteOrder::Big,
        "little" => ByteOrder::Little,
        _ => ByteOrder::Param(meta.value()?.parse()?),
    };
    if let Some(previous) = slot {
        let message = if previous.value == order {
            format!("byte order `{}` is given twice", order.name())
        } else {
            format!(
                "conflicting byte orders: `{}` after `{}`",
                order.name(),
                previous.value.name()
            )
        };
        return Err(meta.error(message));
    }
    *slot = Some(Spanned {
        value: order,
        span: meta.path.span(),
    });
    Ok(())
}

fn set_once<T>(slot: &mut Option<Spanned<T>>, value: T, span: Span, what: &str) -> syn::Result<()> {
    set_once_on(slot, value, span, "a field", what)
}

/// A key a type takes once.
fn set_key_once<T>(
    slot: &mut Option<Spanned<T>>,
    value: T,
    span: Span,
    key: &str,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new(span, format!("`{key}` is given twice")));
    }
    *slot = Some(Spanned { value, span });
    Ok(())
}

fn set_once_on<T>(
    slot: &mut Option<Spanned<T>>,
    value: T,
    span: Span,
    owner: &str,
    what: &str,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new(
            span,
            format!("{owner} takes only one {what} attribute"),
        ));
    }
    *slot = Some(Spanned { value, span });
    Ok(())
}

/// An IFF tag: a string of exactly four ASCII characters, e.g. `"INFO"`.
fn parse_tag(meta: &ParseNestedMeta) -> syn::Result<[u8; 4]> {
    let text: LitStr = meta.value()?.parse()?;
    let value = text.value();
    <[u8; 4]>::try_from(value.as_bytes())
        .ok()
        .filter(|tag| tag.is_ascii())
        .ok_or_else(|| {
            syn::Error::new(
                text.span(),
                format!("an IFF tag is exactly four ASCII characters, such as \"INFO\"; {value:?} is not"),
            )
        })
}

/// The path of the crate holding the runtime, in a string as serde's
/// `crate` takes it: `crate = "my_formats"`.
fn parse_crate_path(meta: &ParseNestedMeta) -> syn::Result<Path> {
    let text: LitStr = meta.value()?.parse()?;
    text.parse().map_err(|_| {
        syn::Error::new(
            text.span(),
            format!(
                "`crate` takes the path of the crate holding the schema runtime, such as \
                 \"ossuary_schema\"; {:?} is not a path",
                text.value()
            ),
        )
    })
}

/// `check = path`, `check = path(value, ...)`, or `check = expr,
/// "message"`.
fn parse_check(meta: &ParseNestedMeta) -> syn::Result<Check> {
    let expr: Expr = meta.value()?.parse()?;
    if meta.input.peek(Token![,]) && meta.input.peek2(LitStr) {
        meta.input.parse::<Token![,]>()?;
        let message: LitStr = meta.input.parse()?;
        return Ok(Check::Inline {
            expr: Box::new(expr),
            message,
        });
    }
    let not_a_function = |span: Span| {
        syn::Error::new(
            span,
            "`check` names a function, maybe with the values it is given after the value \
             checked (`check = below(bone_count)`), or is a condition and what its refusal \
             says (`check = count <= 10, \"more than ten\"`)",
        )
    };
    match expr {
        Expr::Path(function) if function.qself.is_none() => Ok(Check::Function {
            path: function.path,
            args: Vec::new(),
        }),
        Expr::Call(call) => {
            let Expr::Path(function) = *call.func else {
                return Err(not_a_function(call.func.span()));
            };
            let args = call
                .args
                .iter()
                .map(|arg| {
                    bare_name(arg)
                        .cloned()
                        .ok_or_else(|| not_a_function(arg.span()))
                })
                .collect::<syn::Result<_>>()?;
            Ok(Check::Function {
                path: function.path,
                args,
            })
        }
        other => Err(not_a_function(other.span())),
    }
}

/// `bits = N`: 1 to 64 bits.
fn parse_bits(meta: &ParseNestedMeta) -> syn::Result<u32> {
    let bits: LitInt = meta.value()?.parse()?;
    match bits.base10_parse::<u32>() {
        Ok(count @ 1..=64) => Ok(count),
        _ => Err(syn::Error::new(
            bits.span(),
            "`bits = N` takes 1 to 64 bits of a word",
        )),
    }
}

/// One of the string encodings and text forms, which exclude each other.
fn set_encoding(
    slot: &mut Option<Spanned<Encoding>>,
    encoding: Encoding,
    span: Span,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new(
            span,
            "a field takes only one of `pascal`, `null_terminated`, `fixed_width`, `line`, \
             `comment`, `vector` and `angle_brackets`",
        ));
    }
    *slot = Some(Spanned {
        value: encoding,
        span,
    });
    Ok(())
}

/// A key without a value, such as `text` or `style`.
fn set_flag(slot: &mut Option<Span>, span: Span, key: &str) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new(span, format!("`{key}` is given twice")));
    }
    *slot = Some(span);
    Ok(())
}

fn parse_constant(meta: &ParseNestedMeta) -> syn::Result<Constant> {
    let value = meta.value()?;
    if value.peek(LitStr) {
        return Ok(Constant::Text(value.parse()?));
    }
    if value.peek(LitByteStr) {
        return Ok(Constant::Bytes(value.parse()?));
    }
    let int: LitInt = value.parse().map_err(|error| {
        syn::Error::new(
            error.span(),
            "magic takes a suffixed integer literal (`1u32`), a byte string (`b\"FORM\"`) or, \
             in a text layout, a string (`\"version 300\"`)",
        )
    })?;
    if !matches!(
        int.suffix(),
        "u8" | "u16" | "u32" | "u64" | "i8" | "i16" | "i32" | "i64"
    ) {
        return Err(syn::Error::new(
            int.span(),
            "magic integers need a type suffix such as `1u32`, so their width is known",
        ));
    }
    Ok(Constant::Int(int))
}
