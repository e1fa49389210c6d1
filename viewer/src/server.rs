//! The HTTP side: on 127.0.0.1 only, a few threads answering GET requests
//! for the page, the listing, a file's facts and glTF assets.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

use formats::catalogue::Catalogue;
use serde::Serialize;
use tiny_http::{Header, Method, Request, Response, Server};

use crate::listing;
use crate::roots::Roots;
use crate::{web, Assets, GltfRequest, Refused};

/// Requests answered at once: a page loads its modules in parallel, and a
/// slow asset should not hold up the listing.
const THREADS: usize = 4;

#[derive(Debug, thiserror::Error)]
#[error("cannot listen on 127.0.0.1:{port}: {source}")]
pub struct ServeError {
    port: u16,
    source: Box<dyn std::error::Error + Send + Sync>,
}

/// What the server reads from.
pub struct Viewer {
    pub roots: Roots,
    pub catalogue: Catalogue,
    pub assets: Box<dyn Assets>,
}

/// A server answering on its threads until [`Running::stop`].
pub struct Running {
    server: Arc<Server>,
    threads: Vec<JoinHandle<()>>,
    url: String,
}

impl Running {
    /// `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Stops answering, once the requests being answered are done.
    pub fn stop(self) {
        self.server.unblock();
        for _ in 1..self.threads.len() {
            self.server.unblock();
        }
        for thread in self.threads {
            let _ = thread.join();
        }
    }
}

/// Listens on 127.0.0.1 at `port` (0: a free one) and answers on threads
/// of its own.
pub fn start(viewer: Viewer, port: u16) -> Result<Running, ServeError> {
    let server = Server::http(("127.0.0.1", port)).map_err(|source| ServeError { port, source })?;
    let server = Arc::new(server);
    let url = match server.server_addr().to_ip() {
        Some(address) => format!("http://{address}/"),
        None => format!("http://127.0.0.1:{port}/"),
    };
    let viewer = Arc::new(viewer);
    let threads = (0..THREADS)
        .map(|_| {
            let server = Arc::clone(&server);
            let viewer = Arc::clone(&viewer);
            std::thread::spawn(move || {
                for request in server.incoming_requests() {
                    viewer.answer(request);
                }
            })
        })
        .collect();
    Ok(Running {
        server,
        threads,
        url,
    })
}

/// An answer before it is sent.
struct Answer {
    status: u16,
    media_type: &'static str,
    body: Vec<u8>,
    headers: Vec<(&'static str, String)>,
}

impl Answer {
    fn json(status: u16, value: &impl Serialize) -> Answer {
        Answer {
            status,
            media_type: "application/json",
            body: serde_json::to_vec(value).unwrap_or_default(),
            headers: Vec::new(),
        }
    }

    fn not_found() -> Answer {
        Answer::json(
            404,
            &ErrorBody {
                file: None,
                message: "not found".to_owned(),
            },
        )
    }
}

#[derive(Serialize)]
struct ErrorBody {
    file: Option<String>,
    message: String,
}

impl Viewer {
    fn answer(&self, request: Request) {
        let answer = if matches!(request.method(), Method::Get | Method::Head) {
            self.route(request.url())
        } else {
            Answer::json(
                405,
                &ErrorBody {
                    file: None,
                    message: "only GET is answered".to_owned(),
                },
            )
        };
        let mut response = Response::from_data(answer.body).with_status_code(answer.status);
        let headers = [("Content-Type", answer.media_type.to_owned())]
            .into_iter()
            .chain([("Cache-Control", "no-store".to_owned())])
            .chain(answer.headers);
        for (name, value) in headers {
            if let Ok(header) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
                response.add_header(header);
            }
        }
        // A client that went away needs no answer.
        let _ = request.respond(response);
    }

    fn route(&self, url: &str) -> Answer {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let query: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
        match path {
            "/api/list" => Answer::json(200, &listing::list(&self.roots, &self.catalogue)),
            "/api/info" => self.info(&query),
            "/api/gltf" => self.gltf(&query),
            _ => match web::file(path) {
                Some(file) => Answer {
                    status: 200,
                    media_type: file.media_type,
                    body: file.bytes.to_vec(),
                    headers: Vec::new(),
                },
                None => Answer::not_found(),
            },
        }
    }

    fn info(&self, query: &[(String, String)]) -> Answer {
        let Some(open) = self.file(query, "open") else {
            return Answer::not_found();
        };
        let anim = match first(query, "anim") {
            Some(rel) => match self.roots.resolve(rel) {
                Some(path) => Some(path),
                None => return Answer::not_found(),
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
                Answer::json(200, &info)
            }
            Err(refused) => self.refused(&open, &refused),
        }
    }

    fn gltf(&self, query: &[(String, String)]) -> Answer {
        let Some(open) = self.file(query, "open") else {
            return Answer::not_found();
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
                None => return Answer::not_found(),
            }
        }
        let anim = match first(query, "anim") {
            Some(rel) => match self.roots.resolve(rel) {
                Some(path) => Some(path),
                None => return Answer::not_found(),
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
        Answer::json(
            400,
            &ErrorBody {
                file: None,
                message: message.to_owned(),
            },
        )
    }

    fn refused(&self, file: &Path, refused: &Refused) -> Answer {
        let status = if refused.usage { 400 } else { 422 };
        Answer::json(
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
