//! The byte map as a tree: the spans grouped by their field paths (a
//! chunk holds its fields, a list its elements), each node knowing the
//! bytes it covers, so that a reader can fold what does not interest it.
//! For a file that does not decode the tree holds what was read before
//! the error, and the failing field as a node of its own carrying the
//! message.

use std::fmt::Write as _;

use serde::Serialize;

use super::{shortened, Explanation};
use crate::format::Encoding;
use crate::schema::map::Noted;
use crate::schema::{Error, FieldPath, Position, Segment};

/// One node of the tree: a field, an element, a chunk, or the file. Its
/// label and path are written out when shown ([`Node::label`],
/// [`Node::path_to`]): a big file's tree has a node for each of its
/// fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The first byte (text: line) the node covers and the one after the
    /// last.
    pub start: u64,
    pub end: u64,
    /// The values read at this very path (a scalar; a chunk's tag and
    /// size), in file order.
    pub values: Vec<Value>,
    pub children: Vec<Node>,
    /// How many children a folded node ([`Node::folded`]) had.
    pub folded_children: usize,
    /// On a failing field: the error, without its position and path.
    pub error: Option<String>,
    /// Whether the failing field is this node or below it.
    pub error_below: bool,
    /// Its own step of the path: none for the file, and for a failing
    /// field's own node below a node that holds values.
    segment: Option<Segment>,
}

/// A value read at a node's path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Value {
    #[serde(rename = "type")]
    pub type_name: &'static str,
    pub start: u64,
    pub end: u64,
    /// Text: a token's first column and the column after its last, from
    /// 1 (none for a whole line, or bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub columns: Option<(u32, u32)>,
    pub value: String,
    pub kind: super::SpanKind,
}

impl Value {
    fn of(explanation: &Explanation, span: &Noted) -> Value {
        Value {
            type_name: span.type_name,
            start: span.start,
            end: span.end,
            columns: span.columns,
            value: explanation.value(span).to_owned(),
            kind: span.kind.into(),
        }
    }
}

impl Node {
    fn new(segment: Option<Segment>, start: u64) -> Node {
        Node {
            start,
            end: start,
            values: Vec::new(),
            children: Vec::new(),
            folded_children: 0,
            error: None,
            error_below: false,
            segment,
        }
    }

    /// The node's own name: a field name, `[3]`, a chunk tag; `!!` for a
    /// failing field's own node; empty for the file.
    pub fn label(&self) -> String {
        match &self.segment {
            None if self.error.is_some() => "!!".to_owned(),
            None => String::new(),
            Some(Segment::Field(name)) => (*name).to_owned(),
            Some(Segment::Index(index)) => format!("[{index}]"),
            Some(Segment::Chunk(tag)) => tag.escape_ascii().to_string(),
        }
    }

    /// The field path, as errors name fields (`SKMG/0004/INFO`), of the
    /// node at `indices` below this one (the file's root).
    pub fn path_to(&self, indices: &[usize]) -> Option<String> {
        let mut segments = Vec::with_capacity(indices.len());
        let mut node = self;
        for &index in indices {
            node = node.children.get(index)?;
            segments.extend(node.segment.as_ref());
        }
        Some(path_of(&segments))
    }

    /// The tree of `explanation`'s spans, with `error` (the reason the
    /// file stopped decoding, if it did) as a node of its own.
    pub fn of(explanation: &Explanation, error: Option<&Error>) -> Node {
        let mut root = Node::new(None, 0);
        for span in explanation.noted() {
            let segments = explanation.segments(span);
            root.add(&segments, 0, span.start, span.end, &|| {
                Value::of(explanation, span)
            });
        }
        if let Some(error) = error {
            root.add_error(explanation, error);
        }
        root.shrink();
        root
    }

    /// Gives back the room the lists grew into while the tree was built.
    fn shrink(&mut self) {
        self.values.shrink_to_fit();
        self.children.shrink_to_fit();
        for child in &mut self.children {
            child.shrink();
        }
    }

    /// Adds `span` below this node, at `segments[depth..]`. Spans come in
    /// file order, so a node met again is the last child.
    fn add(
        &mut self,
        segments: &[&Segment],
        depth: usize,
        start: u64,
        end: u64,
        value: &dyn Fn() -> Value,
    ) {
        if self.values.is_empty() && self.children.is_empty() {
            self.start = start;
        }
        self.start = self.start.min(start);
        self.end = self.end.max(end);
        let Some(&segment) = segments.get(depth) else {
            self.values.push(value());
            return;
        };
        let same = self
            .children
            .last()
            .is_some_and(|last| last.segment.as_ref() == Some(segment));
        if !same {
            self.children.push(Node::new(Some(segment.clone()), start));
        }
        if let Some(child) = self.children.last_mut() {
            child.add(segments, depth + 1, start, end, value);
        }
    }

    /// Adds the failing field: along the error's path (the map's paths
    /// are written as errors write them), a node at the error's offset
    /// holding its message.
    fn add_error(&mut self, explanation: &Explanation, error: &Error) {
        let at = match error.position {
            Some(Position::Byte(at)) => at,
            Some(Position::Text { line, .. }) => line as u64,
            None => explanation.len,
        };
        // The failing byte, when the file has it, belongs to the failing
        // field: a click on it finds the field.
        let end = (at + 1).min(explanation.len).max(at);
        let segments: Vec<&Segment> = error.path.segments().collect();
        let mut node = self;
        node.error_below = true;
        for segment in &segments {
            let found = node
                .children
                .iter()
                .rposition(|child| child.segment.as_ref() == Some(*segment));
            node = node.child_or_new(found, || Node::new(Some((*segment).clone()), at));
            node.error_below = true;
            node.start = node.start.min(at);
            node.end = node.end.max(end);
        }
        let is_root = node.segment.is_none();
        if is_root || !node.values.is_empty() || !node.children.is_empty() {
            // The failing field's own node: the path already holds values
            // (a chunk whose content failed), or is the whole file.
            node = node.child_or_new(None, || {
                let mut failing = Node::new(None, at);
                failing.end = end;
                failing
            });
            node.error_below = true;
        }
        node.end = node.end.max(end);
        node.error = Some(error.kind.to_string());
    }

    /// The child at `index`, or a new last child `make` makes.
    fn child_or_new(&mut self, index: Option<usize>, make: impl FnOnce() -> Node) -> &mut Node {
        let index = match index {
            Some(index) if index < self.children.len() => index,
            _ => {
                self.children.push(make());
                self.children.len() - 1
            }
        };
        // In range: checked, or just pushed.
        &mut self.children[index]
    }

    /// This tree without the nodes more than `depth` levels below this
    /// one: a node at `depth` keeps only the count of its children (the
    /// way to a failing field stays whole).
    pub fn folded(&self, depth: usize) -> Node {
        let mut node = self.clone();
        node.fold(depth);
        node
    }

    fn fold(&mut self, depth: usize) {
        if depth == 0 && !self.children.is_empty() && !self.error_below {
            self.folded_children = self.children.len();
            self.children = Vec::new();
            return;
        }
        for child in &mut self.children {
            child.fold(depth.saturating_sub(1));
        }
    }

    /// Whether this node is a list of plain values: elements each one
    /// value with nothing below, which a row shows together.
    pub fn is_list_of_values(&self) -> bool {
        self.children.len() > 1
            && self.values.is_empty()
            && self.children.iter().all(|child| {
                matches!(child.segment, Some(Segment::Index(_)))
                    && child.children.is_empty()
                    && child.values.len() == 1
                    && child.error.is_none()
            })
    }

    /// The node at `indices` (child index at each level) below this one.
    pub fn at_indices(&self, indices: &[usize]) -> Option<&Node> {
        indices
            .iter()
            .try_fold(self, |node, &index| node.children.get(index))
    }

    /// The child indices down to the deepest node covering unit `at`
    /// (a byte, or a line for text); empty when no child covers it.
    pub fn indices_at(&self, at: u64) -> Vec<usize> {
        let mut indices = Vec::new();
        let mut node = self;
        loop {
            // Children are in file order: the last one starting at or
            // before `at`, then earlier ones (overlaps are rare).
            let after = node.children.partition_point(|child| child.start <= at);
            let found = node.children.get(..after).and_then(|before| {
                before
                    .iter()
                    .rposition(|child| at < child.end || (child.start == at && child.end == at))
            });
            match found {
                Some(index) => match node.children.get(index) {
                    Some(child) => {
                        indices.push(index);
                        node = child;
                    }
                    None => return indices,
                },
                None => return indices,
            }
        }
    }

    /// The tree as rows: offset, size, path, type and value; nodes deeper
    /// than `depth` below this one folded into their parent's row (with a
    /// count of their children) except on the way to a failing field, a
    /// list of plain values one row, the failing field `!!` and its
    /// message.
    pub fn render(&self, encoding: Encoding, depth: usize) -> String {
        let mut out = String::new();
        let mut segments = Vec::new();
        for child in &self.children {
            child.render_into(&mut out, encoding, (1, depth), &mut segments);
        }
        out
    }

    /// One row for each of the node's own values.
    fn render_values(&self, out: &mut String, encoding: Encoding, path: &str) {
        for value in &self.values {
            let place = self::place(encoding, value.start, value.end);
            let _ = writeln!(
                out,
                "{place}  {path}  {}  {}",
                value.type_name,
                shortened(&value.value)
            );
        }
    }

    /// Rows for this node at `level` (folded below `depth`), below the
    /// path `segments`.
    fn render_into<'a>(
        &'a self,
        out: &mut String,
        encoding: Encoding,
        (level, depth): (usize, usize),
        segments: &mut Vec<&'a Segment>,
    ) {
        let pushed = self.segment.as_ref().map(|segment| segments.push(segment));
        self.render_rows(out, encoding, (level, depth), segments);
        if pushed.is_some() {
            segments.pop();
        }
    }

    fn render_rows<'a>(
        &'a self,
        out: &mut String,
        encoding: Encoding,
        (level, depth): (usize, usize),
        segments: &mut Vec<&'a Segment>,
    ) {
        let place = place(encoding, self.start, self.end);
        let path = path_of(segments);
        if let Some(error) = &self.error {
            let _ = writeln!(out, "{place}  {path}  !! {error}");
            return;
        }
        if self.children.is_empty() {
            self.render_values(out, encoding, &path);
            return;
        }
        if self.is_list_of_values() {
            let _ = writeln!(out, "{place}  {path}  {}", self.list_row());
            return;
        }
        if let ([only], true) = (self.children.as_slice(), self.values.is_empty()) {
            // A node that only wraps another (a version's field around
            // its form) is no level of its own: its child's row names it.
            only.render_into(out, encoding, (level, depth), segments);
            return;
        }
        let below = self.children.len();
        // The way to the failing field stays open.
        if level >= depth && !self.error_below {
            let _ = writeln!(
                out,
                "{place}  {path}  ... {below} {}",
                if below == 1 { "child" } else { "children" }
            );
            return;
        }
        let _ = writeln!(out, "{place}  {path}");
        self.render_values(out, encoding, &path);
        for child in &self.children {
            child.render_into(out, encoding, (level + 1, depth), segments);
        }
    }

    /// A list of plain values as a row: the count, the type, the first
    /// values.
    pub fn list_row(&self) -> String {
        let type_name = self
            .children
            .first()
            .and_then(|child| child.values.first())
            .map_or("", |value| value.type_name);
        let values: Vec<&str> = self
            .children
            .iter()
            .filter_map(|child| child.values.first())
            .map(|value| value.value.as_str())
            .collect();
        format!(
            "[{}] {type_name}  {}",
            self.children.len(),
            shortened(&values.join(", "))
        )
    }
}

/// Where a row's bytes are: the offset in hex and the size (for text, the
/// first line and how many).
fn place(encoding: Encoding, start: u64, end: u64) -> String {
    let size = end.saturating_sub(start);
    match encoding {
        Encoding::Binary => format!("{start:08x}  {size:>7}"),
        Encoding::Text => format!("line {start:>6}  {size:>5}"),
    }
}

/// A node as JSON: its label and path written out, its children below.
impl Serialize for Node {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Json {
            node: self,
            segments: Vec::new(),
        }
        .serialize(serializer)
    }
}

/// A node below the path of its parent, as JSON.
struct Json<'a> {
    node: &'a Node,
    segments: Vec<&'a Segment>,
}

impl Serialize for Json<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let node = self.node;
        let mut segments = self.segments.clone();
        segments.extend(node.segment.as_ref());
        let mut json = serializer.serialize_struct("Node", 9)?;
        json.serialize_field("label", &node.label())?;
        json.serialize_field("path", &path_of(&segments))?;
        json.serialize_field("start", &node.start)?;
        json.serialize_field("end", &node.end)?;
        json.serialize_field("values", &node.values)?;
        let children: Vec<Json> = node
            .children
            .iter()
            .map(|child| Json {
                node: child,
                segments: segments.clone(),
            })
            .collect();
        json.serialize_field("children", &children)?;
        if node.folded_children > 0 {
            json.serialize_field("folded_children", &node.folded_children)?;
        }
        if let Some(error) = &node.error {
            json.serialize_field("error", error)?;
        }
        if node.error_below {
            json.serialize_field("error_below", &true)?;
        }
        json.end()
    }
}

/// The path of a node, written as an error writes it.
fn path_of(segments: &[&Segment]) -> String {
    let mut path = FieldPath::default();
    for segment in segments.iter().rev() {
        path.push_outer((*segment).clone());
    }
    path.to_string()
}
