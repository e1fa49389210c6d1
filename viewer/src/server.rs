//! The server: on 127.0.0.1 only, answering GET requests for the page,
//! the listing, a file's facts and glTF assets, each connection on a
//! thread of its own ([`crate::http`]).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use formats::catalogue::Catalogue;
use serde::Serialize;

use crate::http::{self, Answer, Listening};
use crate::listing;
use crate::roots::Roots;
use crate::{web, Assets, GltfRequest, Refused};

#[derive(Debug, thiserror::Error)]
#[error("cannot listen on 127.0.0.1:{port}: {source}")]
pub struct ServeError {
    port: u16,
    source: std::io::Error,
}

/// What the server reads from.
pub struct Viewer {
    pub roots: Roots,
    pub catalogue: Catalogue,
    pub assets: Box<dyn Assets>,
}

/// A server answering until [`Running::stop`].
pub struct Running {
    listening: Listening,
    url: String,
}

impl Running {
    /// `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Stops answering, once the requests being answered are done.
    pub fn stop(self) {
        self.listening.stop();
    }
}

/// Listens on 127.0.0.1 at `port` (0: a free one) and answers on threads
/// of its own.
pub fn start(viewer: Viewer, port: u16) -> Result<Running, ServeError> {
    let listener =
        TcpListener::bind(("127.0.0.1", port)).map_err(|source| ServeError { port, source })?;
    let viewer = Arc::new(viewer);
    let listening = http::serve(listener, move |request| viewer.route(&request.target))
        .map_err(|source| ServeError { port, source })?;
    let url = format!("http://{}/", listening.address());
    Ok(Running { listening, url })
}

fn json(status: u16, value: &impl Serialize) -> Answer {
    Answer {
        status,
        media_type: "application/json",
        body: serde_json::to_vec(value).unwrap_or_default(),
        headers: Vec::new(),
    }
}

fn not_found() -> Answer {
    json(
        404,
        &ErrorBody {
            file: None,
            message: "not found".to_owned(),
        },
    )
}

#[derive(Serialize)]
struct ErrorBody {
    file: Option<String>,
    message: String,
}

impl Viewer {
    fn route(&self, url: &str) -> Answer {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let query: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
        match path {
            "/api/list" => json(200, &listing::list(&self.roots, &self.catalogue)),
            "/api/info" => self.info(&query),
            "/api/gltf" => self.gltf(&query),
            _ => match web::file(path) {
                Some(file) => Answer {
                    status: 200,
                    media_type: file.media_type,
                    body: file.bytes.to_vec(),
                    headers: Vec::new(),
                },
                None => not_found(),
            },
        }
    }

    fn info(&self, query: &[(String, String)]) -> Answer {
        let Some(open) = self.file(query, "open") else {
            return not_found();
        };
        let anim = match first(query, "anim") {
            Some(rel) => match self.roots.resolve(rel) {
                Some(path) => Some(path),
                None => return not_found(),
            },
            None => None,
        };
        match self.assets.info(&open, anim.as_deref()) {
            Ok(mut info) => {
                info.facts = info.facts.iter().map(|fact| self.shown(fact)).collect();
                info.warnings = info
                    .warnings
                    .iter()
                    .map(|warning| self.shown(warning))
                    .collect();
                json(200, &info)
            }
            Err(refused) => self.refused(&open, &refused),
        }
    }

    fn gltf(&self, query: &[(String, String)]) -> Answer {
        let Some(open) = self.file(query, "open") else {
            return not_found();
        };
        let mut meshes = Vec::new();
        let named: Vec<&str> = all(query, "mesh").collect();
        // Without `mesh`, the meshes that dress the character; `mesh=`
        // with no name asks for none.
        let mesh_rels: Vec<String> = if named.is_empty() {
            let open_rel = first(query, "open").unwrap_or_default();
            listing::meshes_of(&self.roots, &self.catalogue, open_rel)
        } else {
            named
                .into_iter()
                .filter(|rel| !rel.is_empty())
                .map(str::to_owned)
                .collect()
        };
        for rel in &mesh_rels {
            match self.roots.resolve(rel) {
                Some(path) => meshes.push(path),
                None => return not_found(),
            }
        }
        let anim = match first(query, "anim") {
            Some(rel) => match self.roots.resolve(rel) {
                Some(path) => Some(path),
                None => return not_found(),
            },
            None => None,
        };
        let lod = match first(query, "lod").map(str::parse::<usize>) {
            None => 0,
            Some(Ok(lod)) => lod,
            Some(Err(_)) => return self.bad_request("lod is a whole number"),
        };
        let mut blends = Vec::new();
        for blend in all(query, "blend") {
            let parsed = blend
                .split_once('=')
                .and_then(|(name, weight)| Some((name.to_owned(), weight.parse::<f32>().ok()?)));
            match parsed {
                Some(blend) => blends.push(blend),
                None => return self.bad_request("blend is NAME=WEIGHT, e.g. blend_fat=0.5"),
            }
        }
        let request = GltfRequest {
            open: open.clone(),
            meshes,
            anim,
            skill: first(query, "skill").map(str::to_owned),
            lod,
            blends,
        };
        match self.assets.gltf(&request) {
            Ok(made) => {
                let warnings: Vec<String> = made
                    .warnings
                    .iter()
                    .map(|warning| self.shown(warning))
                    .collect();
                Answer {
                    status: 200,
                    media_type: "model/gltf-binary",
                    body: made.glb,
                    headers: vec![(
                        "X-Ossuary-Warnings",
                        serde_json::to_string(&warnings).unwrap_or_default(),
                    )],
                }
            }
            Err(refused) => self.refused(&open, &refused),
        }
    }

    /// The file a query parameter names, when it is one under the roots.
    fn file(&self, query: &[(String, String)], key: &str) -> Option<PathBuf> {
        self.roots.resolve(first(query, key)?)
    }

    fn bad_request(&self, message: &str) -> Answer {
        json(
            400,
            &ErrorBody {
                file: None,
                message: message.to_owned(),
            },
        )
    }

    fn refused(&self, file: &Path, refused: &Refused) -> Answer {
        let status = if refused.usage { 400 } else { 422 };
        json(
            status,
            &ErrorBody {
                file: self.roots.relative(file),
                message: self.shown(&refused.message),
            },
        )
    }

    /// A command-line message as the page shows it: files by the paths
    /// the page uses.
    fn shown(&self, message: &str) -> String {
        self.roots.iter().fold(message.to_owned(), |message, root| {
            let prefix = format!("{}/", root.path.display());
            let replacement = if self.roots.named() {
                format!("{}/", root.name)
            } else {
                String::new()
            };
            message.replace(&prefix, &replacement)
        })
    }
}

fn first<'q>(query: &'q [(String, String)], key: &'q str) -> Option<&'q str> {
    all(query, key).next()
}

fn all<'q>(query: &'q [(String, String)], key: &'q str) -> impl Iterator<Item = &'q str> + 'q {
    query
        .iter()
        .filter(move |(name, _)| name == key)
        .map(|(_, value)| value.as_str())
}
