//! The byte explorer: any file ossuary reads, its bytes beside the tree of
//! the values read from them ([`formats::explain::tree`]), as `ossuary
//! explain` reads it. The page asks for the tree a level at a time (a node
//! and a page of its children), for the way down to the field holding a
//! byte, and for the file's bytes. The tree of the file last asked about
//! is kept while the file is unchanged: the page asks about it again and
//! again.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use formats::catalogue::Catalogue;
use formats::explain::tree::{Node, Value};
use formats::explain::{self};
use formats::format::Encoding;
use formats::objects::file::IffFile;
use serde::Serialize;

use crate::Refused;

/// The most children one answer lists; the page asks for the rest page
/// by page.
pub const CHILDREN_PAGE: usize = 500;

/// The most values of a node one answer lists (a chunk's tag and size;
/// a node with more is a list the page shows on one row).
const VALUES_SHOWN: usize = 8;

/// A file's tree, kept.
pub struct Explored {
    pub format: &'static str,
    pub encoding: Encoding,
    /// The file's length: bytes, or lines for text.
    pub len: u64,
    pub bytes: Vec<u8>,
    pub tree: Node,
    /// Why the file stopped decoding, when it did.
    pub error: Option<String>,
    /// For an object file: by chunk index, the sprite's name (`SPR2-100`)
    /// where the chunk is a sprite, so that its frames show as pictures.
    pub sprites: Vec<Option<String>>,
}

/// A sprite frame a node holds, which `/api/object/frame` draws.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FrameOf {
    /// `SPR2-100`.
    pub sprite: String,
    pub frame: usize,
}

/// One node as the page shows it, without what is below it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeShown {
    /// The child indices from the root, joined by `.` (empty for the root).
    pub id: String,
    pub label: String,
    pub path: String,
    pub start: u64,
    pub end: u64,
    /// How many children it has.
    pub children: usize,
    pub values: Vec<Value>,
    /// For a list of plain values: the row that shows it whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub error_below: bool,
    /// When the node is a sprite's frame: which.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub picture: Option<FrameOf>,
}

impl NodeShown {
    /// `node`, at `indices` below `tree`'s root.
    fn of(tree: &Node, node: &Node, indices: &[usize], sprites: &[Option<String>]) -> NodeShown {
        let path = tree.path_to(indices).unwrap_or_default();
        NodeShown {
            picture: frame_of(&path, sprites),
            id: id_of(indices),
            label: node.label(),
            path,
            start: node.start,
            end: node.end,
            children: node.children.len(),
            values: node.values.iter().take(VALUES_SHOWN).map(shown).collect(),
            list: node.is_list_of_values().then(|| node.list_row()),
            error: node.error.clone(),
            error_below: node.error_below,
        }
    }
}

/// A value as a row of the page shows it: cut short as `explain` cuts it,
/// so that a value the file makes huge (a megabyte-long name) is not sent
/// whole.
fn shown(value: &Value) -> Value {
    Value {
        value: explain::shortened(&value.value),
        ..value.clone()
    }
}

/// A node and a page of its children.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Level {
    pub node: NodeShown,
    /// The index of the first child listed.
    pub from: usize,
    pub children: Vec<NodeShown>,
}

/// What the page is told first: the file, and the root's first children.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Opened {
    pub format: &'static str,
    /// `binary` (units are bytes) or `text` (units are lines).
    pub encoding: &'static str,
    pub len: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub root: Level,
}

/// The files explored, the last one kept.
pub struct Explorer {
    catalogue: Catalogue,
    limit: u64,
    last: Mutex<Option<Kept>>,
}

struct Kept {
    path: PathBuf,
    identity: Option<(u64, Option<SystemTime>)>,
    explored: Arc<Explored>,
}

fn identity(path: &Path) -> Option<(u64, Option<SystemTime>)> {
    let metadata = std::fs::metadata(path).ok()?;
    Some((metadata.len(), metadata.modified().ok()))
}

fn refused(path: &Path, message: impl std::fmt::Display, usage: bool) -> Refused {
    Refused {
        message: format!("{}: {message}", path.display()),
        usage,
    }
}

impl Explorer {
    /// Reads no file of more than `limit` bytes.
    pub fn new(catalogue: Catalogue, limit: u64) -> Explorer {
        Explorer {
            catalogue,
            limit,
            last: Mutex::new(None),
        }
    }

    /// The tree of `path` (a file under the roots), read again only when
    /// it changed.
    pub fn explored(&self, path: &Path) -> Result<Arc<Explored>, Refused> {
        let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        let now = identity(path);
        if let Some(kept) = last.as_ref() {
            if kept.path == path && now.is_some() && kept.identity == now {
                return Ok(Arc::clone(&kept.explored));
            }
        }
        let bytes = export::input::read(path, self.limit).map_err(|error| {
            let usage = error.is_usage();
            refused(path, error, usage)
        })?;
        let name = path.to_string_lossy();
        let format = self.catalogue.detect(&name, &bytes).ok_or_else(|| {
            refused(
                path,
                "cannot tell the format from the name or the content",
                true,
            )
        })?;
        let (explanation, decoded) = explain::explain_decoded(format, &bytes);
        let sprites = match &decoded {
            Ok(document) => sprites_of(document.as_any().downcast_ref::<IffFile>()),
            Err(_) => Vec::new(),
        };
        let error = decoded.err();
        let tree = Node::of(&explanation, error.as_ref());
        let explored = Arc::new(Explored {
            format: format.name,
            encoding: format.encoding,
            len: explanation.len,
            bytes,
            tree,
            error: error.map(|error| error.to_string()),
            sprites,
        });
        *last = Some(Kept {
            path: path.to_path_buf(),
            identity: now,
            explored: Arc::clone(&explored),
        });
        Ok(explored)
    }
}

impl Explored {
    /// The file and the root's first page of children.
    pub fn opened(&self) -> Opened {
        Opened {
            format: self.format,
            encoding: match self.encoding {
                Encoding::Binary => "binary",
                Encoding::Text => "text",
            },
            len: self.len,
            error: self.error.clone(),
            root: Level::of(&self.tree, &self.tree, &[], 0, &self.sprites),
        }
    }

    /// The node `id` names (`3.0.12`) and its children from `from`, if
    /// there is such a node.
    pub fn level(&self, id: &str, from: usize) -> Option<Level> {
        let indices = parse_id(id)?;
        let node = self.tree.at_indices(&indices)?;
        Some(Level::of(&self.tree, node, &indices, from, &self.sprites))
    }

    /// The ids of the nodes from the root's child down to the deepest
    /// node holding unit `at` (a byte, or a line for text).
    pub fn way_to(&self, at: u64) -> Vec<String> {
        let indices = self.tree.indices_at(at);
        (1..=indices.len())
            .map(|depth| id_of(indices.get(..depth).unwrap_or_default()))
            .collect()
    }
}

impl Level {
    /// `node`, at `indices` below `tree`'s root, and its children from
    /// `from`.
    fn of(
        tree: &Node,
        node: &Node,
        indices: &[usize],
        from: usize,
        sprites: &[Option<String>],
    ) -> Level {
        let children = node
            .children
            .iter()
            .enumerate()
            .skip(from)
            .take(CHILDREN_PAGE)
            .map(|(index, child)| {
                let mut child_indices = indices.to_vec();
                child_indices.push(index);
                NodeShown::of(tree, child, &child_indices, sprites)
            })
            .collect();
        Level {
            node: NodeShown::of(tree, node, indices, sprites),
            from,
            children,
        }
    }
}

/// By chunk index, the name of each sprite chunk (`SPR2-100`, `SPR#-900`).
fn sprites_of(file: Option<&IffFile>) -> Vec<Option<String>> {
    let Some(file) = file else {
        return Vec::new();
    };
    file.chunks
        .iter()
        .map(|chunk| {
            matches!(&chunk.kind.tag, b"SPR2" | b"SPR#")
                .then(|| format!("{}-{}", chunk.kind, chunk.id))
        })
        .collect()
}

/// The sprite frame at `path` (`chunks[5].data.Sprite.V1000.frames[0]`),
/// when chunk 5 is a sprite.
fn frame_of(path: &str, sprites: &[Option<String>]) -> Option<FrameOf> {
    let (chunk, rest) = path.strip_prefix("chunks[")?.split_once(']')?;
    let sprite = sprites.get(chunk.parse::<usize>().ok()?)?.clone()?;
    let (inside, frame) = rest.strip_prefix(".data.")?.rsplit_once(".frames[")?;
    let frame = frame.strip_suffix(']')?.parse().ok()?;
    (!inside.contains('[')).then_some(FrameOf { sprite, frame })
}

fn id_of(indices: &[usize]) -> String {
    indices
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

/// `3.0.12` as indices; the empty id is the root.
fn parse_id(id: &str) -> Option<Vec<usize>> {
    if id.is_empty() {
        return Some(Vec::new());
    }
    id.split('.').map(|part| part.parse().ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures")
            .join(name)
    }

    #[test]
    fn a_value_is_sent_cut_short() {
        let long = Value {
            type_name: "RawString",
            start: 0,
            end: 1 << 20,
            columns: None,
            value: "x".repeat(1 << 20),
            kind: explain::SpanKind::Field,
        };
        let sent = shown(&long);
        assert!(
            sent.value.len() < 70,
            "{} characters sent",
            sent.value.len()
        );
        assert!(sent.value.ends_with("..."));
        assert_eq!((sent.start, sent.end), (0, 1 << 20));
    }

    #[test]
    fn a_level_lists_a_node_and_its_children_and_a_byte_leads_to_its_field() {
        let explorer = Explorer::new(Catalogue::default(), 1 << 20);
        let explored = explorer.explored(&fixture("humanoid.skel")).unwrap();
        let opened = explored.opened();
        assert_eq!(opened.encoding, "binary");
        let labels: Vec<&str> = opened
            .root
            .children
            .iter()
            .map(|child| child.label.as_str())
            .collect();
        assert_eq!(labels, ["version", "name", "bones"]);
        let bones = explored.level("2", 0).unwrap();
        assert_eq!(bones.children.len(), 12);
        assert_eq!(bones.children[0].id, "2.0");
        // Byte 16: the first bone's unknown u32.
        let way = explored.way_to(16);
        assert_eq!(way.first().map(String::as_str), Some("2"));
        let field = explored.level(way.last().unwrap(), 0).unwrap();
        assert_eq!(field.node.path, "bones[0].unknown");
        assert!(explored.level("2.x", 0).is_none());
        assert!(explored.sprites.is_empty());
    }

    #[test]
    fn a_sprite_frame_names_its_picture() {
        let explorer = Explorer::new(Catalogue::default(), 1 << 20);
        let explored = explorer.explored(&fixture("chair.iff")).unwrap();
        let sprite = explored.sprites.iter().position(Option::is_some).unwrap();
        let name = explored.sprites[sprite].clone().unwrap();
        let path = format!("chunks[{sprite}].data.Sprite.V1000.frames[0]");
        assert_eq!(
            frame_of(&path, &explored.sprites),
            Some(FrameOf {
                sprite: name,
                frame: 0
            })
        );
        assert_eq!(frame_of(&format!("{path}.width"), &explored.sprites), None);
        assert_eq!(
            frame_of("chunks[0].data.x.frames[0]", &explored.sprites),
            None
        );
        assert!(explored.level("9", 0).is_none());
    }
}
