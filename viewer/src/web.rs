//! The page's files, embedded in the binary so that the viewer works
//! offline and from any folder.

/// A file the server hands out: its URL path, media type and bytes.
pub struct WebFile {
    pub path: &'static str,
    pub media_type: &'static str,
    pub bytes: &'static [u8],
}

macro_rules! web_files {
    ($(($path:literal, $media_type:expr)),* $(,)?) => {
        &[$(WebFile {
            path: $path,
            media_type: $media_type,
            bytes: include_bytes!(concat!("../web", $path)),
        }),*]
    };
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file of the page; `/` is `/index.html`.
pub static FILES: &[WebFile] = web_files![
    ("/index.html", "text/html; charset=utf-8"),
    ("/explore.html", "text/html; charset=utf-8"),
    ("/app/explore/explore.css", "text/css; charset=utf-8"),
    ("/app/explore/api.js", JS),
    ("/app/explore/tree.js", JS),
    ("/app/explore/hex.js", JS),
    ("/app/explore/main.js", JS),
    ("/app/style.css", "text/css; charset=utf-8"),
    ("/app/main.js", JS),
    ("/app/api.js", JS),
    ("/app/state.js", JS),
    ("/app/list.js", JS),
    ("/app/scene.js", JS),
    ("/app/animation.js", JS),
    ("/app/controls.js", JS),
    ("/app/facts.js", JS),
    ("/app/wardrobe.js", JS),
    ("/app/customization.js", JS),
    ("/app/joints.js", JS),
    ("/app/objects.js", JS),
    ("/vendor/three/three.module.js", JS),
    ("/vendor/three/addons/loaders/GLTFLoader.js", JS),
    ("/vendor/three/addons/controls/OrbitControls.js", JS),
    ("/vendor/three/addons/utils/BufferGeometryUtils.js", JS),
];

/// The file at a URL path.
pub fn file(path: &str) -> Option<&'static WebFile> {
    let path = if path == "/" { "/index.html" } else { path };
    FILES.iter().find(|file| file.path == path)
}
