//! The server: on 127.0.0.1 only, answering GET requests for the page,
//! the listing, a file's facts and glTF assets, each connection on a
//! thread of its own ([`crate::http`]).
//!
//! glTF assets are made one at a time: making one can hold a decoded
//! texture of hundreds of megabytes, and the cap on connections answered
//! at once bounds threads, not memory. Other requests for assets wait
//! their turn, up to `GLTF_WAIT`. Made assets are kept ([`crate::cache`])
//! and given again while the files under the paths are unchanged.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use export::assembly::{Dressing, Tone};
use export::input::Reading;
use formats::catalogue::Catalogue;
use serde::Serialize;

use crate::cache::{self, Cache, Kept};
use crate::explorer::Explorer;
use crate::http::{self, Answer, Listening};
use crate::listing;
use crate::made::Exported;
use crate::messages;
use crate::objects::Objects;
use crate::roots::Roots;
use crate::{web, Assets, GltfRequest, Made, Refused};

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
    assets: Box<dyn Assets>,
    objects: Objects,
    explorer: Explorer,
}

impl Viewer {
    /// The viewer of the files under `roots`: no file is read outside
    /// them (the files shown, nor the files they refer to), nor one of more
    /// than `limit` bytes.
    pub fn new(roots: Roots, catalogue: Catalogue, limit: u64) -> Viewer {
        let folders: Vec<PathBuf> = roots.iter().map(|root| root.path.clone()).collect();
        let reading = Reading {
            limit,
            within: Some(folders.into()),
        };
        Viewer {
            roots,
            catalogue,
            objects: Objects::new(catalogue, reading.clone()),
            explorer: Explorer::new(catalogue, limit),
            assets: Box::new(Exported { catalogue, reading }),
        }
    }
}

/// glTF assets made at once.
const GLTF_BUILDS: usize = 1;
/// How long a request for a glTF asset waits for its turn before it is
/// refused with 503.
const GLTF_WAIT: Duration = Duration::from_secs(30);
/// How often a request waiting for its turn looks whether its client has
/// gone (and its turn can go to the next).
const GONE_POLL: Duration = Duration::from_millis(100);

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
    let server = Arc::new(Server {
        viewer,
        gltf_turns: Turns::new(GLTF_BUILDS),
        answers: Cache::new(cache::DEFAULT_CAPACITY, cache::MAX_ENTRIES),
    });
    let listening = http::serve(listener, move |request, client| {
        server.route(&request.target, &|| client.gone())
    })
    .map_err(|source| ServeError { port, source })?;
    let url = format!("http://{}/", listening.address());
    Ok(Running { listening, url })
}

fn json(status: u16, value: &impl Serialize) -> Answer {
    Answer {
        status,
        media_type: "application/json",
        body: serde_json::to_vec(value).unwrap_or_default().into(),
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

/// Turns to do something of which only so many may be done at once.
struct Turns {
    free: Mutex<usize>,
    freed: Condvar,
}

/// A turn, given back when dropped.
struct Turn<'a>(&'a Turns);

impl Turns {
    fn new(at_once: usize) -> Turns {
        Turns {
            free: Mutex::new(at_once),
            freed: Condvar::new(),
        }
    }

    /// Waits for a turn until `deadline`; `None` when the deadline passes
    /// first or the client has gone (`gone`).
    fn take(&self, deadline: Instant, gone: &dyn Fn() -> bool) -> Option<Turn<'_>> {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if *free > 0 {
                *free -= 1;
                return Some(Turn(self));
            }
            let left = deadline
                .checked_duration_since(Instant::now())
                .filter(|left| !left.is_zero())?;
            if gone() {
                return None;
            }
            free = match self.freed.wait_timeout(free, left.min(GONE_POLL)) {
                Ok((free, _)) => free,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut free = self.0.free.lock().unwrap_or_else(PoisonError::into_inner);
        *free += 1;
        self.0.freed.notify_one();
    }
}

/// A viewer being served.
struct Server {
    viewer: Viewer,
    gltf_turns: Turns,
    /// glTF answers made, by request.
    answers: Cache,
}

impl Server {
    /// The answer to `url`; `gone` tells whether the client has gone, for
    /// work that takes a while.
    fn route(&self, url: &str, gone: &dyn Fn() -> bool) -> Answer {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let query: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
        match path {
            "/api/list" => {
                let mut listing = listing::list(&self.viewer.roots, &self.viewer.catalogue, gone);
                for problem in &mut listing.problems {
                    problem.message = self.shown(&problem.message);
                }
                json(200, &listing)
            }
            "/api/info" => self.info(&query),
            "/api/gltf" => self.gltf(&query, gone),
            "/api/object" => self.object(&query),
            "/api/object/view" => self.object_view(&query),
            "/api/object/frame" => self.object_frame(&query),
            "/api/object/mesh" => self.object_mesh(&query),
            "/api/explore" => self.explore(&query),
            "/api/explore/node" => self.explore_node(&query),
            "/api/explore/at" => self.explore_at(&query),
            "/api/explore/bytes" => self.explore_bytes(&query),
            _ => match web::file(path) {
                Some(file) => Answer {
                    status: 200,
                    media_type: file.media_type,
                    body: file.bytes.into(),
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
        // Only the meshes named: their customization variables are told.
        let mut meshes = Vec::new();
        for rel in all(query, "mesh").filter(|rel| !rel.is_empty()) {
            match self.viewer.roots.resolve(rel) {
                Some(path) => meshes.push(path),
                None => return not_found(),
            }
        }
        let anim = match first(query, "anim") {
            Some(rel) => match self.viewer.roots.resolve(rel) {
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
        match self
            .viewer
            .assets
            .info(&open, &meshes, anim.as_deref(), lod)
        {
            Ok(mut info) => {
                info.facts = info.facts.iter().map(|fact| self.shown(fact)).collect();
                info.warnings = info
                    .warnings
                    .iter()
                    .map(|warning| self.shown(warning))
                    .collect();
                for skill in &mut info.skills {
                    skill.problem = skill.problem.as_deref().map(|problem| self.shown(problem));
                }
                json(200, &info)
            }
            Err(refused) => self.refused(&open, &refused),
        }
    }

    /// The glTF answer to `query`: the one kept for it while the files
    /// it may have been made from are unchanged, else one made now.
    fn gltf(&self, query: &[(String, String)], gone: &dyn Fn() -> bool) -> Answer {
        let request = serde_json::to_string(query).unwrap_or_default();
        // Taken before making, so that a file changed while the asset is
        // made gives a new one next time.
        let inputs = self.answers.inputs(&self.viewer.roots);
        if let Some(kept) = inputs.and_then(|inputs| self.answers.get(&request, inputs)) {
            return gltf_answer(&kept);
        }
        let answer = self.make_gltf(query, gone);
        if let (200, Some(inputs)) = (answer.status, inputs) {
            let warnings = answer
                .headers
                .iter()
                .find(|(name, _)| *name == WARNINGS)
                .map(|(_, warnings)| warnings.clone())
                .unwrap_or_default();
            let kept = Kept {
                glb: Arc::clone(&answer.body),
                warnings,
            };
            self.answers.put(request, inputs, Arc::new(kept));
        }
        release_freed_memory();
        answer
    }

    fn make_gltf(&self, query: &[(String, String)], gone: &dyn Fn() -> bool) -> Answer {
        let Some(open) = self.file(query, "open") else {
            return not_found();
        };
        let mut meshes = Vec::new();
        let named: Vec<&str> = all(query, "mesh").collect();
        // Without `mesh`, the meshes that dress the character; `mesh=`
        // with no name asks for none.
        let mesh_rels: Vec<String> = if named.is_empty() {
            let open_rel = first(query, "open").unwrap_or_default();
            listing::meshes_of(&self.viewer.roots, &self.viewer.catalogue, open_rel, gone)
        } else {
            named
                .into_iter()
                .filter(|rel| !rel.is_empty())
                .map(str::to_owned)
                .collect()
        };
        for rel in &mesh_rels {
            match self.viewer.roots.resolve(rel) {
                Some(path) => meshes.push(path),
                None => return not_found(),
            }
        }
        let anim = match first(query, "anim") {
            Some(rel) => match self.viewer.roots.resolve(rel) {
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
            match export::blend_weight(blend) {
                Ok(blend) => blends.push(blend),
                Err(message) => return self.bad_request(&message),
            }
        }
        let tone = match first(query, "tone").map(str::parse::<Tone>) {
            None => Tone::default(),
            Some(Ok(tone)) => tone,
            Some(Err(error)) => return self.bad_request(&error.to_string()),
        };
        // `texture=SKIN=IMAGE`: the image a skin is dressed with, a file
        // under the roots.
        let mut images = Vec::new();
        for texture in all(query, "texture") {
            let Some((skin, rel)) = texture.split_once('=').filter(|(skin, _)| !skin.is_empty())
            else {
                return self.bad_request(&format!("`{texture}` is not SKIN=IMAGE"));
            };
            match self.viewer.roots.resolve(rel) {
                Some(path) => images.push((skin.to_owned(), path)),
                None => return not_found(),
            }
        }
        // `custom=NAME:INDEX`: a customization variable's value.
        let mut customization = Vec::new();
        for custom in all(query, "custom") {
            match crate::custom_value(custom) {
                Ok(custom) => customization.push(custom),
                Err(error) => return self.bad_request(&error.to_string()),
            }
        }
        let request = GltfRequest {
            open: open.clone(),
            meshes,
            anim,
            skill: first(query, "skill").map(str::to_owned),
            lod,
            blends,
            dressing: Dressing { tone, images },
            customization,
        };
        let Some(_turn) = self.gltf_turns.take(Instant::now() + GLTF_WAIT, gone) else {
            return json(
                503,
                &ErrorBody {
                    file: None,
                    message: format!(
                        "other glTF assets took over {} s to make; try again",
                        GLTF_WAIT.as_secs()
                    ),
                },
            );
        };
        // The variables are read only when a value is chosen: an asset
        // with none needs no look at the shaders.
        if !request.customization.is_empty() {
            let variables =
                match (self.viewer.assets).variables(&request.open, &request.meshes, request.lod) {
                    Ok(variables) => variables,
                    Err(refused) => return self.refused(&open, &refused),
                };
            if let Err(error) = crate::check_customization(&request.customization, &variables) {
                return self.bad_request(&error.to_string());
            }
        }
        self.glb(&open, self.viewer.assets.gltf(&request))
    }

    /// A made asset, with the warnings made with it as the page shows
    /// them; or why it was not made.
    fn glb(&self, open: &Path, made: Result<Made, Refused>) -> Answer {
        match made {
            Ok(made) => {
                let warnings: Vec<String> = made
                    .warnings
                    .iter()
                    .map(|warning| self.shown(warning))
                    .collect();
                Answer {
                    status: 200,
                    media_type: GLTF_BINARY,
                    body: made.glb.into(),
                    headers: vec![(WARNINGS, warnings_header(&warnings))],
                }
            }
            Err(refused) => self.refused(open, &refused),
        }
    }

    /// What the object file `open` holds: its objects, draw groups and
    /// sprites, and `info`'s facts.
    fn object(&self, query: &[(String, String)]) -> Answer {
        let Some(open) = self.file(query, "open") else {
            return not_found();
        };
        match self.viewer.objects.facts(&open) {
            Ok(mut facts) => {
                facts.facts = facts.facts.iter().map(|fact| self.shown(fact)).collect();
                facts.warnings = facts
                    .warnings
                    .iter()
                    .map(|warning| self.shown(warning))
                    .collect();
                json(200, &facts)
            }
            Err(refused) => self.refused(&open, &refused),
        }
    }

    /// The view of draw group `group` from `direction` at `zoom`, as PNG.
    fn object_view(&self, query: &[(String, String)]) -> Answer {
        let Some(open) = self.file(query, "open") else {
            return not_found();
        };
        let (Some(group), Some(direction), Some(zoom)) = (
            number(query, "group"),
            number(query, "direction"),
            number(query, "zoom"),
        ) else {
            return self.bad_request("group, direction and zoom are whole numbers");
        };
        self.png(
            &open,
            self.viewer.objects.view(&open, group, direction, zoom),
        )
    }

    /// Frame `frame` of sprite `sprite` (`SPR2-100`) as PNG; with
    /// `depth=1`, its z-buffer.
    fn object_frame(&self, query: &[(String, String)]) -> Answer {
        let Some(open) = self.file(query, "open") else {
            return not_found();
        };
        let (Some(sprite), Some(frame)) = (first(query, "sprite"), number(query, "frame")) else {
            return self
                .bad_request("sprite names a sprite (SPR2-100) and frame is a whole number");
        };
        let depth = first(query, "depth") == Some("1");
        self.png(
            &open,
            self.viewer.objects.frame(&open, sprite, frame, depth),
        )
    }

    /// The 3D mesh of draw group `group`, as a `.glb`.
    fn object_mesh(&self, query: &[(String, String)]) -> Answer {
        let Some(open) = self.file(query, "open") else {
            return not_found();
        };
        let Some(group) = number(query, "group") else {
            return self.bad_request("group is a whole number");
        };
        self.glb(&open, self.viewer.objects.mesh(&open, group))
    }

    /// The explorer's first answer on `open`: its format, length, error
    /// and the root's first children.
    fn explore(&self, query: &[(String, String)]) -> Answer {
        let Some(open) = self.file(query, "open") else {
            return not_found();
        };
        match self.viewer.explorer.explored(&open) {
            Ok(explored) => {
                let mut opened = explored.opened();
                opened.error = opened.error.map(|error| self.shown(&error));
                json(200, &opened)
            }
            Err(refused) => self.refused(&open, &refused),
        }
    }

    /// Node `node` (`3.0.12`, empty for the root) of `open`'s tree and its
    /// children from `from`.
    fn explore_node(&self, query: &[(String, String)]) -> Answer {
        let Some(open) = self.file(query, "open") else {
            return not_found();
        };
        let from = match first(query, "from").map(str::parse::<usize>) {
            None => 0,
            Some(Ok(from)) => from,
            Some(Err(_)) => return self.bad_request("from is a whole number"),
        };
        let id = first(query, "node").unwrap_or_default();
        match self.viewer.explorer.explored(&open) {
            Ok(explored) => match explored.level(id, from) {
                Some(level) => json(200, &level),
                None => not_found(),
            },
            Err(refused) => self.refused(&open, &refused),
        }
    }

    /// The ids of the nodes down to the deepest one holding byte (text:
    /// line) `at` of `open`.
    fn explore_at(&self, query: &[(String, String)]) -> Answer {
        let Some(open) = self.file(query, "open") else {
            return not_found();
        };
        let Some(at) = number::<u64>(query, "at") else {
            return self.bad_request("at is a whole number");
        };
        match self.viewer.explorer.explored(&open) {
            Ok(explored) => json(200, &explored.way_to(at)),
            Err(refused) => self.refused(&open, &refused),
        }
    }

    /// The bytes of `open`, as the explorer read them.
    fn explore_bytes(&self, query: &[(String, String)]) -> Answer {
        let Some(open) = self.file(query, "open") else {
            return not_found();
        };
        match self.viewer.explorer.explored(&open) {
            Ok(explored) => Answer {
                status: 200,
                media_type: "application/octet-stream",
                body: explored.bytes.clone().into(),
                headers: Vec::new(),
            },
            Err(refused) => self.refused(&open, &refused),
        }
    }

    fn png(&self, open: &Path, made: Result<Vec<u8>, Refused>) -> Answer {
        match made {
            Ok(png) => Answer {
                status: 200,
                media_type: "image/png",
                body: png.into(),
                headers: Vec::new(),
            },
            Err(refused) => self.refused(open, &refused),
        }
    }

    /// The file a query parameter names, when it is one under the roots.
    fn file(&self, query: &[(String, String)], key: &str) -> Option<PathBuf> {
        self.viewer.roots.resolve(first(query, key)?)
    }

    fn bad_request(&self, message: &str) -> Answer {
        json(
            400,
            &ErrorBody {
                file: None,
                message: self.shown(message),
            },
        )
    }

    fn refused(&self, file: &Path, refused: &Refused) -> Answer {
        let status = if refused.usage { 400 } else { 422 };
        json(
            status,
            &ErrorBody {
                file: self.viewer.roots.relative(file),
                message: self.shown(&refused.message),
            },
        )
    }

    /// A command-line message as the page shows it: files by the paths
    /// the page uses, and no longer than [`messages::bounded`] allows.
    fn shown(&self, message: &str) -> String {
        let relative = self
            .viewer
            .roots
            .iter()
            .fold(message.to_owned(), |message, root| {
                let prefix = format!("{}/", root.path.display());
                let replacement = if self.viewer.roots.named() {
                    format!("{}/", root.name)
                } else {
                    String::new()
                };
                message.replace(&prefix, &replacement)
            });
        messages::bounded(&relative).into_owned()
    }
}

/// Gives the memory freed so far back to the system. Making an asset
/// decodes its textures (up to hundreds of megabytes) on the connection's
/// own thread, and keeping it lets the oldest answers go; glibc's
/// allocator keeps what is freed in each thread's arena for reuse, which
/// held the server at twice the answers' bound (300 MB resident after
/// 2,000 distinct assets, 128 MiB of them kept; 150 MB with this).
fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only hands back memory that is free; nothing in
    // use moves.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The header giving the warnings made with an asset, as a JSON list.
const WARNINGS: &str = "X-Ossuary-Warnings";
/// The most bytes of warnings the header holds: browsers refuse a
/// response whose headers pass a few hundred KiB, and a page shows a
/// few warnings, not thousands.
const WARNINGS_LIMIT: usize = 8 << 10;

/// The warnings header's value: the warnings as a JSON list, as many as
/// fit in [`WARNINGS_LIMIT`] bytes, then one saying how many were left
/// out.
fn warnings_header(warnings: &[String]) -> String {
    let mut shown: Vec<&str> = Vec::new();
    let mut bytes = 0;
    for warning in warnings {
        // As JSON writes it, and a comma.
        bytes += serde_json::to_string(warning).map_or(0, |json| json.len()) + 1;
        if bytes > WARNINGS_LIMIT {
            break;
        }
        shown.push(warning);
    }
    let left_out = warnings.len() - shown.len();
    let more = format!("and {left_out} more warning(s), left out");
    if left_out > 0 {
        shown.push(&more);
    }
    serde_json::to_string(&shown).unwrap_or_default()
}
const GLTF_BINARY: &str = "model/gltf-binary";

fn gltf_answer(kept: &Kept) -> Answer {
    Answer {
        status: 200,
        media_type: GLTF_BINARY,
        body: Arc::clone(&kept.glb),
        headers: vec![(WARNINGS, kept.warnings.clone())],
    }
}

/// A query parameter's whole number.
fn number<T: std::str::FromStr>(query: &[(String, String)], key: &str) -> Option<T> {
    first(query, key)?.parse().ok()
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::{Chooses, Info, Made, Variable};

    /// A palette variable of three colours.
    fn skin_colour() -> Variable {
        Variable {
            name: "index_color_skin".to_owned(),
            choices: 3,
            default: 0,
            chooses: Chooses::Palette {
                palette: "palette/pc_skin_twk.pal".to_owned(),
                colours: vec![
                    "#ff0000".to_owned(),
                    "#00ff00".to_owned(),
                    "#0000ff".to_owned(),
                ],
            },
        }
    }

    /// Makes assets slowly, counting how many it makes at once.
    #[derive(Default)]
    struct Slow {
        making: AtomicUsize,
        most: AtomicUsize,
    }

    impl Assets for Arc<Slow> {
        fn gltf(&self, _: &GltfRequest) -> Result<Made, Refused> {
            let making = self.making.fetch_add(1, Ordering::SeqCst) + 1;
            self.most.fetch_max(making, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(100));
            self.making.fetch_sub(1, Ordering::SeqCst);
            Ok(Made {
                glb: b"glTF".to_vec(),
                warnings: Vec::new(),
            })
        }

        fn info(
            &self,
            _: &Path,
            _: &[PathBuf],
            _: Option<&Path>,
            _: usize,
        ) -> Result<Info, Refused> {
            Ok(Info::default())
        }

        fn variables(&self, _: &Path, _: &[PathBuf], _: usize) -> Result<Vec<Variable>, Refused> {
            Ok(Vec::new())
        }
    }

    fn server(dir: &Path, assets: Arc<Slow>) -> Server {
        std::fs::write(dir.join("a.skel"), "x").unwrap();
        Server {
            viewer: Viewer {
                roots: Roots::new(&[dir.to_path_buf()]).unwrap(),
                catalogue: Catalogue::default(),
                objects: Objects::new(Catalogue::default(), Reading::default()),
                explorer: Explorer::new(Catalogue::default(), 1 << 20),
                assets: Box::new(assets),
            },
            gltf_turns: Turns::new(GLTF_BUILDS),
            answers: Cache::new(cache::DEFAULT_CAPACITY, cache::MAX_ENTRIES),
        }
    }

    #[test]
    fn blend_weights_must_be_finite_numbers() {
        let dir = tempfile::tempdir().unwrap();
        let server = server(dir.path(), Arc::default());
        for (blend, status) in [
            ("blend_fat=0.5", 200),
            ("blend_fat=NaN", 400),
            ("blend_fat=inf", 400),
            ("blend_fat=-infinity", 400),
            ("blend_fat=1e39", 400),
            ("blend_fat=", 400),
            ("=0.5", 400),
            ("blend_fat", 400),
        ] {
            let answer = server.route(&format!("/api/gltf?open=a.skel&blend={blend}"), &|| false);
            assert_eq!(answer.status, status, "{blend}");
        }
        let answer = server.route("/api/gltf?open=a.skel&blend=blend_fat=NaN", &|| false);
        let body: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
        assert_eq!(body["message"], "`NaN` in `blend_fat=NaN` is not a number");
    }

    #[test]
    fn the_warnings_header_holds_what_fits_and_counts_the_rest() {
        let warnings: Vec<String> = (0..1000).map(|index| format!("warning {index}")).collect();
        let header = warnings_header(&warnings);
        assert!(header.len() <= WARNINGS_LIMIT + 100, "{}", header.len());
        let shown: Vec<String> = serde_json::from_str(&header).unwrap();
        let kept = shown.len() - 1;
        assert_eq!(shown[..kept], warnings[..kept]);
        assert_eq!(
            shown[kept],
            format!("and {} more warning(s), left out", 1000 - kept)
        );
        let few = &warnings[..3];
        assert_eq!(warnings_header(few), serde_json::to_string(few).unwrap());
    }

    #[test]
    fn gltf_assets_are_made_one_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let assets = Arc::new(Slow::default());
        let server = server(dir.path(), Arc::clone(&assets));
        std::thread::scope(|scope| {
            let asked: Vec<_> = (0..3)
                .map(|_| scope.spawn(|| server.route("/api/gltf?open=a.skel", &|| false).status))
                .collect();
            for status in asked {
                assert_eq!(status.join().unwrap(), 200);
            }
        });
        assert_eq!(assets.most.load(Ordering::SeqCst), GLTF_BUILDS);
    }

    /// Makes an asset of the bytes of the file opened, counting how many
    /// it makes.
    #[derive(Default)]
    struct Copying {
        made: AtomicUsize,
    }

    impl Assets for Arc<Copying> {
        fn gltf(&self, request: &GltfRequest) -> Result<Made, Refused> {
            self.made.fetch_add(1, Ordering::SeqCst);
            let custom = request
                .customization
                .iter()
                .map(|(name, value)| format!(" {name}={value}"));
            Ok(Made {
                glb: std::fs::read(&request.open).unwrap(),
                warnings: vec![format!(
                    "{} meshes{}",
                    request.meshes.len(),
                    custom.collect::<String>()
                )],
            })
        }

        /// The meshes' variables: the skin colour when a mesh is named.
        fn info(
            &self,
            open: &Path,
            meshes: &[PathBuf],
            _: Option<&Path>,
            lod: usize,
        ) -> Result<Info, Refused> {
            Ok(Info {
                variables: self.variables(open, meshes, lod)?,
                ..Info::default()
            })
        }

        fn variables(
            &self,
            _: &Path,
            meshes: &[PathBuf],
            _: usize,
        ) -> Result<Vec<Variable>, Refused> {
            Ok(meshes.iter().map(|_| skin_colour()).take(1).collect())
        }
    }

    #[test]
    fn an_asset_is_made_again_only_when_a_file_has_changed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.skel"), "one").unwrap();
        let assets = Arc::new(Copying::default());
        let server = Server {
            viewer: Viewer {
                roots: Roots::new(&[dir.path().to_path_buf()]).unwrap(),
                catalogue: Catalogue::default(),
                objects: Objects::new(Catalogue::default(), Reading::default()),
                explorer: Explorer::new(Catalogue::default(), 1 << 20),
                assets: Box::new(Arc::clone(&assets)),
            },
            gltf_turns: Turns::new(GLTF_BUILDS),
            answers: Cache::new(cache::DEFAULT_CAPACITY, cache::MAX_ENTRIES),
        };
        let ask = |url: &str| {
            let answer = server.route(url, &|| false);
            assert_eq!(answer.status, 200);
            (answer.body, answer.headers)
        };
        let first = ask("/api/gltf?open=a.skel&mesh=");
        assert_eq!(*first.0, *b"one");
        assert_eq!(first.1, [(WARNINGS, r#"["0 meshes"]"#.to_owned())]);
        assert_eq!(ask("/api/gltf?open=a.skel&mesh="), first);
        assert_eq!(assets.made.load(Ordering::SeqCst), 1);
        // Another request is another asset.
        ask("/api/gltf?open=a.skel&mesh=&lod=0");
        assert_eq!(assets.made.load(Ordering::SeqCst), 2);
        // An edited file gives a new asset.
        std::fs::write(dir.path().join("a.skel"), "three").unwrap();
        assert_eq!(*ask("/api/gltf?open=a.skel&mesh=").0, *b"three");
        assert_eq!(assets.made.load(Ordering::SeqCst), 3);
        // So does a file that was not there, which the asset may use.
        std::fs::write(dir.path().join("b.cmx"), "").unwrap();
        assert_eq!(*ask("/api/gltf?open=a.skel&mesh=").0, *b"three");
        assert_eq!(assets.made.load(Ordering::SeqCst), 4);
        assert_eq!(*ask("/api/gltf?open=a.skel&mesh=").0, *b"three");
        assert_eq!(assets.made.load(Ordering::SeqCst), 4);
    }

    fn copying_server(dir: &Path, assets: &Arc<Copying>) -> Server {
        std::fs::write(dir.join("a.skel"), "one").unwrap();
        Server {
            viewer: Viewer {
                roots: Roots::new(&[dir.to_path_buf()]).unwrap(),
                catalogue: Catalogue::default(),
                objects: Objects::new(Catalogue::default(), Reading::default()),
                explorer: Explorer::new(Catalogue::default(), 1 << 20),
                assets: Box::new(Arc::clone(assets)),
            },
            gltf_turns: Turns::new(GLTF_BUILDS),
            answers: Cache::new(cache::DEFAULT_CAPACITY, cache::MAX_ENTRIES),
        }
    }

    #[test]
    fn customizations_are_read_checked_against_the_variables_and_passed_on() {
        let dir = tempfile::tempdir().unwrap();
        let assets = Arc::new(Copying::default());
        let server = copying_server(dir.path(), &assets);
        let message = |custom: &str| {
            let answer = server.route(
                &format!("/api/gltf?open=a.skel&mesh=a.skel&{custom}"),
                &|| false,
            );
            let body: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
            (
                answer.status,
                body["message"].as_str().unwrap_or("").to_owned(),
            )
        };
        let syntax = |value: &str| {
            (
                400,
                format!("`{value}` is not NAME:INDEX (a variable's name and a whole number)"),
            )
        };
        assert_eq!(
            message("custom=index_color_skin"),
            syntax("index_color_skin")
        );
        assert_eq!(
            message("custom=index_color_skin:"),
            syntax("index_color_skin:")
        );
        assert_eq!(message("custom=:2"), syntax(":2"));
        assert_eq!(
            message("custom=index_color_skin:-1"),
            syntax("index_color_skin:-1")
        );
        assert_eq!(
            message("custom=index_color_skin:4294967296"),
            syntax("index_color_skin:4294967296")
        );
        assert_eq!(
            message("custom=index_age:1"),
            (
                400,
                "the character has no customization variable `index_age` (it has index_color_skin)"
                    .to_owned()
            )
        );
        assert_eq!(
            message("custom=index_color_skin:3"),
            (
                400,
                "`index_color_skin` takes a value from 0 to 2, not 3".to_owned()
            )
        );
        assert_eq!(
            message("custom=index_color_skin:1&custom=index_color_skin:2"),
            (400, "`index_color_skin` is chosen twice".to_owned())
        );
        assert_eq!(assets.made.load(Ordering::SeqCst), 0);
        let answer = server.route(
            "/api/gltf?open=a.skel&mesh=a.skel&custom=index_color_skin:2",
            &|| false,
        );
        assert_eq!(answer.status, 200);
        assert_eq!(
            answer.headers,
            [(WARNINGS, r#"["1 meshes index_color_skin=2"]"#.to_owned())]
        );
    }

    #[test]
    fn the_facts_tell_the_variables_of_the_meshes_named() {
        let dir = tempfile::tempdir().unwrap();
        let server = copying_server(dir.path(), &Arc::default());
        let variables = |url: &str| {
            let answer = server.route(url, &|| false);
            let body: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
            (answer.status, body["variables"].clone())
        };
        assert_eq!(
            variables("/api/info?open=a.skel"),
            (200, serde_json::json!([]))
        );
        let (status, named) = variables("/api/info?open=a.skel&mesh=a.skel");
        assert_eq!(status, 200);
        assert_eq!(
            named,
            serde_json::json!([{
                "name": "index_color_skin",
                "choices": 3,
                "default": 0,
                "chooses": {
                    "kind": "palette",
                    "palette": "palette/pc_skin_twk.pal",
                    "colours": ["#ff0000", "#00ff00", "#0000ff"],
                },
            }])
        );
        assert_eq!(variables("/api/info?open=a.skel&mesh=b.mgn").0, 404);
    }

    #[test]
    fn each_customization_is_an_asset_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let assets = Arc::new(Copying::default());
        let server = copying_server(dir.path(), &assets);
        let warnings = |url: &str| {
            let answer = server.route(url, &|| false);
            assert_eq!(answer.status, 200);
            answer.headers
        };
        let plain = warnings("/api/gltf?open=a.skel&mesh=a.skel");
        let red = warnings("/api/gltf?open=a.skel&mesh=a.skel&custom=index_color_skin:0");
        let blue = warnings("/api/gltf?open=a.skel&mesh=a.skel&custom=index_color_skin:2");
        assert_eq!(assets.made.load(Ordering::SeqCst), 3);
        assert_ne!(red, blue);
        assert_ne!(plain, red);
        // Asked again, each is the one kept.
        assert_eq!(
            warnings("/api/gltf?open=a.skel&mesh=a.skel&custom=index_color_skin:2"),
            blue
        );
        assert_eq!(warnings("/api/gltf?open=a.skel&mesh=a.skel"), plain);
        assert_eq!(assets.made.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn a_turn_is_waited_for_until_the_deadline_or_the_client_goes() {
        let turns = Turns::new(1);
        let held = turns.take(Instant::now(), &|| false);
        assert!(held.is_some());
        let started = Instant::now();
        assert!(turns
            .take(started + Duration::from_millis(200), &|| false)
            .is_none());
        assert!(started.elapsed() >= Duration::from_millis(200));
        let started = Instant::now();
        assert!(turns
            .take(started + Duration::from_secs(10), &|| true)
            .is_none());
        assert!(started.elapsed() < Duration::from_secs(1));
        drop(held);
        assert!(turns.take(Instant::now(), &|| false).is_some());
    }
}
