//! A picture of posed skeletons and their meshes, for `ossuary render`.
//!
//! The image has a title band on top and two views side by side below it,
//! both orthographic, in right-handed y-up axes: each figure's positions are
//! given in its file's own axes and turned first (a left-handed file such as
//! the Sims' is mirrored in x, a z-up one turned), so the front view shows a
//! figure as its game did:
//!
//! - front (left): x to the right, y up, seen from +z;
//! - side (right): z to the right, y up, seen from -x.
//!
//! Several figures stand side by side in each view, their lowest points
//! level with each other's as the files place them. Both views share one
//! scale, the largest at which every figure fits its panel less a margin, so
//! the figures fill the picture and compare in size; a ruler at the left of
//! each view gives heights in the files' units, from the lowest point drawn.
//! Meshes are drawn as flat-shaded triangles (a mesh with an image and
//! texture coordinates shows its image, shaded alike), farthest first (painter's
//! algorithm); a mesh without triangles (a BonesPro structure's vertices)
//! as small squares at its vertices; bones, unless left out, are lines from
//! parent to child drawn over them, and joints are dots.

use formats::rig::Axes;
use glam::Vec3;
use skinning::axes::right_handed_y_up;
use thiserror::Error;
use tiny_skia::{
    Color, FillRule, FilterQuality, LineCap, Paint, PathBuilder, Pattern, Pixmap, Rect, SpreadMode,
    Stroke,
};

/// Colors, as RGB.
pub const BACKGROUND: [u8; 3] = [240, 240, 235];
pub const BONE: [u8; 3] = [210, 40, 40];
pub const JOINT: [u8; 3] = [30, 30, 110];
pub const TEXT: [u8; 3] = [20, 20, 20];
pub const RULER: [u8; 3] = [110, 110, 110];
/// Mesh color at full light; darker where a face turns from the light.
pub const MESH: [u8; 3] = [190, 170, 140];

/// Height of the title band above the views, in pixels.
pub const TITLE_BAND_HEIGHT: u32 = 32;
const TITLE_SCALE: f32 = 2.0;
const LABEL_SCALE: f32 = 1.0;
const BONE_WIDTH: f32 = 2.5;
const JOINT_RADIUS: f32 = 3.0;
/// Side of the square drawn at each vertex of a mesh without triangles.
const VERTEX_SIDE: f32 = 4.0;
/// Light on those squares: about the darkest faces', to stand out from the
/// background.
const VERTEX_LIGHT: f32 = 0.5;
/// Light reaching a face that is edge-on to the light.
const AMBIENT: f32 = 0.3;
/// Smallest image in which two views and a title still make sense.
pub const MIN_WIDTH: u32 = 64;
pub const MIN_HEIGHT: u32 = TITLE_BAND_HEIGHT + 32;
/// Largest side of an image: a 16384 x 16384 picture takes 1 GiB to draw.
pub const MAX_SIDE: u32 = 16384;
/// Width kept at the left of each view for the ruler and its labels.
const RULER_WIDTH: f32 = 64.0;
/// Room between the ruler's line and the figures.
const RULER_GAP: f32 = 8.0;
/// Ruler ticks are at least this far apart.
const MIN_TICK_PIXELS: f32 = 24.0;
/// Room between figures, as a part of the largest figure's size.
const FIGURE_GAP: f32 = 0.25;

/// A joint in model space, in the file's axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderJoint {
    pub position: Vec3,
    /// Index of the parent joint, `None` for a root.
    pub parent: Option<u32>,
}

/// A triangle mesh in model space, in the file's axes.
#[derive(Clone, Copy, Debug)]
pub struct RenderMesh<'a> {
    pub positions: &'a [Vec3],
    pub triangles: &'a [[u32; 3]],
    /// Texture coordinates, one per position, counted from the image's top
    /// left as glTF counts them; empty when the mesh has none.
    pub uvs: &'a [[f32; 2]],
    /// The image the mesh wears; it is drawn only where `uvs` has one pair
    /// per position.
    pub texture: Option<Texture<'a>>,
}

/// An image, 8-bit RGBA (not premultiplied), rows from the top.
#[derive(Clone, Copy, Debug)]
pub struct Texture<'a> {
    pub width: u32,
    pub height: u32,
    pub rgba: &'a [u8],
}

/// One posed skeleton and the meshes it carries, in its file's axes.
#[derive(Clone, Copy, Debug)]
pub struct Figure<'a> {
    pub joints: &'a [RenderJoint],
    pub meshes: &'a [RenderMesh<'a>],
    /// How the file's axes lie.
    pub axes: Axes,
}

/// Everything one picture shows.
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    /// Drawn left to right, at one scale.
    pub figures: &'a [Figure<'a>],
    pub title: &'a str,
    /// Whether to draw bones and joints (else meshes only).
    pub bones: bool,
}

/// Image size in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageSize {
    pub width: u32,
    pub height: u32,
}

impl ImageSize {
    /// A size between [`MIN_WIDTH`] x [`MIN_HEIGHT`] and [`MAX_SIDE`] on
    /// each side.
    pub fn new(width: u32, height: u32) -> Result<ImageSize, RenderError> {
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(RenderError::TooLarge { width, height });
        }
        if width < MIN_WIDTH || height < MIN_HEIGHT {
            return Err(RenderError::TooSmall { width, height });
        }
        Ok(ImageSize { width, height })
    }
}

impl Default for ImageSize {
    fn default() -> ImageSize {
        ImageSize {
            width: 800,
            height: 600,
        }
    }
}

/// Why a scene cannot be drawn.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RenderError {
    #[error("joint {joint} has parent {parent}, but there are only {count} joints")]
    ParentOutOfRange {
        joint: usize,
        parent: u32,
        count: usize,
    },
    #[error("mesh {mesh}, triangle {triangle} uses vertex {vertex}, but the mesh has only {count} vertices")]
    VertexOutOfRange {
        mesh: usize,
        triangle: usize,
        vertex: u32,
        count: usize,
    },
    #[error("an image of {width}x{height} pixels is too small; it must be at least {MIN_WIDTH}x{MIN_HEIGHT}")]
    TooSmall { width: u32, height: u32 },
    #[error(
        "an image of {width}x{height} pixels is too large; each side can be at most {MAX_SIDE}"
    )]
    TooLarge { width: u32, height: u32 },
    #[error("could not encode the PNG: {0}")]
    Png(String),
    #[error(
        "mesh {mesh}'s texture of {width}x{height} pixels holds {bytes} bytes, not 4 per pixel"
    )]
    TextureSize {
        mesh: usize,
        width: u32,
        height: u32,
        bytes: usize,
    },
}

/// One of the two orthographic views.
#[derive(Clone, Copy)]
enum View {
    Front,
    Side,
}

impl View {
    /// Model point to view space: (right, up, toward the viewer). Both maps
    /// are rotations, so face normals and depth order carry over.
    fn to_view(self, point: Vec3) -> Vec3 {
        match self {
            View::Front => point,
            View::Side => Vec3::new(point.z, point.y, -point.x),
        }
    }

    fn label(self) -> &'static str {
        match self {
            View::Front => "FRONT (x right, y up)",
            View::Side => "SIDE (z right, y up)",
        }
    }
}

/// Where a figure lands in one view of the image: model-space view
/// coordinates to pixels.
#[derive(Clone, Copy)]
struct Framing {
    /// Pixel position of the view-space point `center`.
    panel_center: (f32, f32),
    center: (f32, f32),
    /// Pixels per model unit, the same in both views.
    scale: f32,
    /// How far the figure is moved to the right of where it stands, in
    /// model units, to stand beside the figures before it.
    shift: f32,
}

impl Framing {
    fn pixel(&self, view_point: Vec3) -> (f32, f32) {
        (
            self.panel_center.0 + (view_point.x + self.shift - self.center.0) * self.scale,
            // Pixel rows grow downward, model y upward.
            self.panel_center.1 - (view_point.y - self.center.1) * self.scale,
        )
    }

    /// The pixel row of a model height.
    fn row(&self, y: f32) -> f32 {
        self.pixel(Vec3::new(0.0, y, 0.0)).1
    }
}

/// Bounds in a view's (right, up) plane: min x, min y, max x, max y.
type Bounds = (f32, f32, f32, f32);

/// The figures of one view side by side: each one's shift to the right,
/// and the bounds of them all once shifted.
struct Lineup {
    shifts: Vec<f32>,
    bounds: Option<Bounds>,
}

impl Lineup {
    fn of(view: View, figures: &[Figure], bones: bool) -> Lineup {
        let each: Vec<Option<Bounds>> = figures
            .iter()
            .map(|figure| view_bounds(view, &drawn_points(figure, bones)))
            .collect();
        let largest = each
            .iter()
            .flatten()
            .map(|&(min_x, min_y, max_x, max_y)| (max_x - min_x).max(max_y - min_y))
            .fold(0.0, f32::max);
        let gap = if largest > 0.0 {
            largest * FIGURE_GAP
        } else {
            1.0
        };
        let mut shifts = Vec::with_capacity(figures.len());
        let mut bounds: Option<Bounds> = None;
        let mut cursor = 0.0;
        for figure_bounds in &each {
            let Some((min_x, min_y, max_x, max_y)) = *figure_bounds else {
                shifts.push(0.0);
                continue;
            };
            let shift = cursor - min_x;
            shifts.push(shift);
            cursor += max_x - min_x + gap;
            let (low_x, low_y, high_x, high_y) =
                bounds.unwrap_or((min_x + shift, min_y, max_x + shift, max_y));
            bounds = Some((
                low_x.min(min_x + shift),
                low_y.min(min_y),
                high_x.max(max_x + shift),
                high_y.max(max_y),
            ));
        }
        Lineup { shifts, bounds }
    }
}

/// The points a figure's drawing covers.
fn drawn_points(figure: &Figure, bones: bool) -> Vec<Vec3> {
    let mut points: Vec<Vec3> = if bones {
        figure.joints.iter().map(|joint| joint.position).collect()
    } else {
        Vec::new()
    };
    for mesh in figure.meshes {
        points.extend_from_slice(mesh.positions);
    }
    points
}

/// Bounding rectangle of the finite points, in one view's (right, up) plane.
fn view_bounds(view: View, points: &[Vec3]) -> Option<Bounds> {
    points
        .iter()
        .filter(|point| point.is_finite())
        .map(|point| view.to_view(*point))
        .fold(None, |bounds, point| {
            let (min_x, min_y, max_x, max_y) =
                bounds.unwrap_or((point.x, point.y, point.x, point.y));
            Some((
                min_x.min(point.x),
                min_y.min(point.y),
                max_x.max(point.x),
                max_y.max(point.y),
            ))
        })
}

/// Checks a figure's indices once, so drawing can skip bad ones silently
/// knowing there are none.
fn check(figure: &Figure) -> Result<(), RenderError> {
    let count = figure.joints.len();
    for (joint, entry) in figure.joints.iter().enumerate() {
        if let Some(parent) = entry.parent {
            if parent as usize >= count {
                return Err(RenderError::ParentOutOfRange {
                    joint,
                    parent,
                    count,
                });
            }
        }
    }
    for (mesh_index, mesh) in figure.meshes.iter().enumerate() {
        if let Some(texture) = mesh.texture {
            let pixels = u64::from(texture.width) * u64::from(texture.height);
            if texture.rgba.len() as u64 != pixels * 4 || pixels == 0 {
                return Err(RenderError::TextureSize {
                    mesh: mesh_index,
                    width: texture.width,
                    height: texture.height,
                    bytes: texture.rgba.len(),
                });
            }
        }
        let count = mesh.positions.len();
        for (triangle, corners) in mesh.triangles.iter().enumerate() {
            if let Some(&vertex) = corners.iter().find(|&&vertex| vertex as usize >= count) {
                return Err(RenderError::VertexOutOfRange {
                    mesh: mesh_index,
                    triangle,
                    vertex,
                    count,
                });
            }
        }
    }
    Ok(())
}

fn paint(rgb: [u8; 3], anti_alias: bool) -> Paint<'static> {
    let mut paint = Paint {
        anti_alias,
        ..Paint::default()
    };
    paint.set_color_rgba8(rgb[0], rgb[1], rgb[2], 255);
    paint
}

fn shaded(rgb: [u8; 3], intensity: f32) -> [u8; 3] {
    rgb.map(|channel| (f32::from(channel) * intensity).round().clamp(0.0, 255.0) as u8)
}

/// Draws `text` in the 8x8 bitmap font, each font pixel a `scale`-sized square,
/// with its top-left corner at (x, y). Characters the font lacks show as '?'.
/// The title at full size if it fits the width, else at label size, cut
/// with `...` if it still does not.
fn fit_title(title: &str, width: u32) -> (String, f32) {
    let room = width.saturating_sub(16) as f32;
    let characters = title.chars().count() as f32;
    if characters * 8.0 * TITLE_SCALE <= room {
        return (title.to_owned(), TITLE_SCALE);
    }
    let fits = (room / (8.0 * LABEL_SCALE)) as usize;
    if title.chars().count() <= fits {
        return (title.to_owned(), LABEL_SCALE);
    }
    let kept: String = title.chars().take(fits.saturating_sub(3)).collect();
    (format!("{kept}..."), LABEL_SCALE)
}

fn draw_text(pixmap: &mut Pixmap, text: &str, x: f32, y: f32, scale: f32, rgb: [u8; 3]) {
    use font8x8::UnicodeFonts;
    let paint = paint(rgb, false);
    let identity = tiny_skia::Transform::identity();
    for (column, character) in text.chars().enumerate() {
        let glyph = font8x8::BASIC_FONTS
            .get(character)
            .or_else(|| font8x8::LATIN_FONTS.get(character))
            .or_else(|| font8x8::BASIC_FONTS.get('?'))
            .unwrap_or_default();
        let left = x + column as f32 * 8.0 * scale;
        for (row, bits) in glyph.iter().enumerate() {
            for bit in 0..8 {
                // In font8x8 the lowest bit is the leftmost pixel.
                if bits & (1 << bit) == 0 {
                    continue;
                }
                let rect = Rect::from_xywh(
                    left + bit as f32 * scale,
                    y + row as f32 * scale,
                    scale,
                    scale,
                );
                if let Some(rect) = rect {
                    pixmap.fill_rect(rect, &paint, identity, None);
                }
            }
        }
    }
}

/// A triangle ready to paint: pixel corners, depth toward the viewer,
/// color, and where it lies on its mesh's image (the image's index among
/// the view's images, its corners in the image's pixels).
struct PaintedTriangle {
    corners: [(f32, f32); 3],
    depth: f32,
    rgb: [u8; 3],
    intensity: f32,
    image: Option<(usize, [(f32, f32); 3])>,
}

/// A texture as tiny-skia draws it: premultiplied (the games' images are
/// opaque, but a PNG may not be).
fn texture_pixmap(texture: &Texture) -> Option<Pixmap> {
    let size = tiny_skia::IntSize::from_wh(texture.width, texture.height)?;
    let premultiplied = texture
        .rgba
        .chunks_exact(4)
        .flat_map(|pixel| {
            let alpha = u16::from(pixel[3]);
            let scale = |channel: u8| ((u16::from(channel) * alpha + 127) / 255) as u8;
            [scale(pixel[0]), scale(pixel[1]), scale(pixel[2]), pixel[3]]
        })
        .collect();
    Pixmap::from_vec(premultiplied, size)
}

/// The transform taking the image's pixels `from` (a triangle's corners on
/// it) to the picture's pixels `to`: the views are orthographic, so one
/// affine map per triangle draws its image exactly. `None` where the
/// triangle has no area on the image.
fn image_to_picture(from: [(f32, f32); 3], to: [(f32, f32); 3]) -> Option<tiny_skia::Transform> {
    let [p0, p1, p2] = from;
    let [q0, q1, q2] = to;
    let (a, b) = (p1.0 - p0.0, p2.0 - p0.0);
    let (c, d) = (p1.1 - p0.1, p2.1 - p0.1);
    let det = a * d - b * c;
    if det.abs() < 1e-9 || !det.is_finite() {
        return None;
    }
    let (e, f) = (q1.0 - q0.0, q2.0 - q0.0);
    let (g, h) = (q1.1 - q0.1, q2.1 - q0.1);
    // [e f; g h] * inverse([a b; c d]).
    let m00 = (e * d - f * c) / det;
    let m01 = (f * a - e * b) / det;
    let m10 = (g * d - h * c) / det;
    let m11 = (h * a - g * b) / det;
    let tx = q0.0 - (m00 * p0.0 + m01 * p0.1);
    let ty = q0.1 - (m10 * p0.0 + m11 * p0.1);
    Some(tiny_skia::Transform::from_row(m00, m10, m01, m11, tx, ty))
}

fn draw_view(pixmap: &mut Pixmap, figure: &Figure, bones: bool, view: View, framing: &Framing) {
    let identity = tiny_skia::Transform::identity();
    // Light from the upper left, toward the viewer, in view space.
    let light = Vec3::new(-0.4, 0.6, 1.0).normalize();

    let mut triangles = Vec::new();
    let mut images: Vec<Pixmap> = Vec::new();
    for mesh in figure.meshes {
        let image = mesh
            .texture
            .filter(|_| mesh.uvs.len() == mesh.positions.len())
            .and_then(|texture| texture_pixmap(&texture))
            .map(|pixmap| {
                images.push(pixmap);
                images.len() - 1
            });
        for corners in mesh.triangles {
            let points = corners.map(|vertex| {
                mesh.positions
                    .get(vertex as usize)
                    .map_or(Vec3::NAN, |point| view.to_view(*point))
            });
            if !points.iter().all(|point| point.is_finite()) {
                continue;
            }
            let [a, b, c] = points;
            let normal = (b - a).cross(c - a).normalize_or_zero();
            // Two-sided: the formats differ in winding and handedness.
            let intensity = AMBIENT + (1.0 - AMBIENT) * normal.dot(light).abs();
            let on_image = image.and_then(|index| {
                let pixmap = images.get(index)?;
                let (width, height) = (pixmap.width() as f32, pixmap.height() as f32);
                let mut uv = [(0.0, 0.0); 3];
                for (corner, vertex) in uv.iter_mut().zip(corners) {
                    let [u, v] = *mesh.uvs.get(*vertex as usize)?;
                    *corner = (u * width, v * height);
                }
                Some((index, uv))
            });
            triangles.push(PaintedTriangle {
                corners: points.map(|point| framing.pixel(point)),
                depth: (a.z + b.z + c.z) / 3.0,
                rgb: shaded(MESH, intensity),
                intensity,
                image: on_image,
            });
        }
    }
    triangles.sort_by(|first, second| first.depth.total_cmp(&second.depth));
    let vertex_paint = paint(shaded(MESH, VERTEX_LIGHT), false);
    let vertices = figure
        .meshes
        .iter()
        .filter(|mesh| mesh.triangles.is_empty())
        .flat_map(|mesh| mesh.positions)
        .filter(|point| point.is_finite());
    for vertex in vertices {
        let (x, y) = framing.pixel(view.to_view(*vertex));
        let half = VERTEX_SIDE / 2.0;
        if let Some(square) = Rect::from_xywh(x - half, y - half, VERTEX_SIDE, VERTEX_SIDE) {
            pixmap.fill_rect(square, &vertex_paint, identity, None);
        }
    }
    for triangle in &triangles {
        let mut path = PathBuilder::new();
        let [a, b, c] = triangle.corners;
        path.move_to(a.0, a.1);
        path.line_to(b.0, b.1);
        path.line_to(c.0, c.1);
        path.close();
        let Some(path) = path.finish() else {
            continue;
        };
        // No anti-aliasing: with it, shared edges of neighbouring
        // triangles let the background bleed through as seams.
        let textured = triangle.image.and_then(|(index, uv)| {
            let image = images.get(index)?;
            let transform = image_to_picture(uv, triangle.corners)?;
            Some(Paint {
                shader: Pattern::new(
                    image.as_ref(),
                    SpreadMode::Repeat,
                    FilterQuality::Nearest,
                    1.0,
                    transform,
                ),
                anti_alias: false,
                ..Paint::default()
            })
        });
        match textured {
            Some(textured) => {
                pixmap.fill_path(&path, &textured, FillRule::Winding, identity, None);
                // The light, as on plain faces: black over the image, as
                // opaque as the face is dark.
                let mut shade = paint([0, 0, 0], false);
                let darkness = (1.0 - triangle.intensity).clamp(0.0, 1.0);
                shade.set_color_rgba8(0, 0, 0, (darkness * 255.0).round() as u8);
                pixmap.fill_path(&path, &shade, FillRule::Winding, identity, None);
            }
            None => {
                let paint = paint(triangle.rgb, false);
                pixmap.fill_path(&path, &paint, FillRule::Winding, identity, None);
            }
        }
    }

    if !bones {
        return;
    }
    let bone_paint = paint(BONE, true);
    let stroke = Stroke {
        width: BONE_WIDTH,
        line_cap: LineCap::Round,
        ..Stroke::default()
    };
    for joint in figure.joints {
        let Some(parent) = joint
            .parent
            .and_then(|parent| figure.joints.get(parent as usize))
        else {
            continue;
        };
        if !(joint.position.is_finite() && parent.position.is_finite()) {
            continue;
        }
        let from = framing.pixel(view.to_view(parent.position));
        let to = framing.pixel(view.to_view(joint.position));
        let mut path = PathBuilder::new();
        path.move_to(from.0, from.1);
        path.line_to(to.0, to.1);
        if let Some(path) = path.finish() {
            pixmap.stroke_path(&path, &bone_paint, &stroke, identity, None);
        }
    }

    let joint_paint = paint(JOINT, true);
    for joint in figure.joints {
        if !joint.position.is_finite() {
            continue;
        }
        let (x, y) = framing.pixel(view.to_view(joint.position));
        if let Some(dot) = PathBuilder::from_circle(x, y, JOINT_RADIUS) {
            pixmap.fill_path(&dot, &joint_paint, FillRule::Winding, identity, None);
        }
    }
}

/// Draws the scene and returns the picture as PNG bytes.
pub fn render_png(scene: &Scene, size: ImageSize) -> Result<Vec<u8>, RenderError> {
    let size = ImageSize::new(size.width, size.height)?;
    for figure in scene.figures {
        check(figure)?;
    }
    let turned: Vec<(Vec<RenderJoint>, Vec<Vec<Vec3>>)> = scene
        .figures
        .iter()
        .map(|figure| {
            let turn = |position: Vec3| right_handed_y_up(figure.axes, position);
            let joints = figure
                .joints
                .iter()
                .map(|joint| RenderJoint {
                    position: turn(joint.position),
                    ..*joint
                })
                .collect();
            let positions = figure
                .meshes
                .iter()
                .map(|mesh| mesh.positions.iter().copied().map(turn).collect())
                .collect();
            (joints, positions)
        })
        .collect();
    let meshes: Vec<Vec<RenderMesh>> = scene
        .figures
        .iter()
        .zip(&turned)
        .map(|(figure, (_, positions))| {
            figure
                .meshes
                .iter()
                .zip(positions)
                .map(|(mesh, positions)| RenderMesh { positions, ..*mesh })
                .collect()
        })
        .collect();
    let figures: Vec<Figure> = turned
        .iter()
        .zip(&meshes)
        .map(|((joints, _), meshes)| Figure {
            joints,
            meshes,
            axes: Axes::RightHandedYUp,
        })
        .collect();
    draw(
        &Scene {
            figures: &figures,
            ..*scene
        },
        size,
    )
}

/// Draws a scene already in right-handed, y-up axes, at a checked size.
fn draw(scene: &Scene, size: ImageSize) -> Result<Vec<u8>, RenderError> {
    let mut pixmap = Pixmap::new(size.width, size.height).ok_or(RenderError::TooLarge {
        width: size.width,
        height: size.height,
    })?;
    let [red, green, blue] = BACKGROUND;
    pixmap.fill(Color::from_rgba8(red, green, blue, 255));

    let panel_width = size.width as f32 / 2.0;
    let panel_height = (size.height - TITLE_BAND_HEIGHT) as f32;
    // Room around the figures, and for the view label at the top.
    let margin = (panel_width.min(panel_height) * 0.06).max(12.0);
    let room_x = (panel_width - 2.0 * margin - RULER_WIDTH).max(1.0);
    let room_y = panel_height - 2.0 * margin;

    let views = [View::Front, View::Side];
    let lineups = views.map(|view| Lineup::of(view, scene.figures, scene.bones));
    // One scale for both views (their heights are the same model extent),
    // the largest at which each view's figures fit inside its panel.
    let scale = lineups
        .iter()
        .filter_map(|lineup| lineup.bounds)
        .map(|(min_x, min_y, max_x, max_y)| {
            let fit_x = room_x / (max_x - min_x);
            let fit_y = room_y / (max_y - min_y);
            fit_x.min(fit_y)
        })
        .fold(f32::INFINITY, f32::min);
    // A single point (or nothing) has no extent to fit; any scale will do.
    let scale = if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        1.0
    };

    for (index, (view, lineup)) in views.into_iter().zip(&lineups).enumerate() {
        let panel_left = index as f32 * panel_width;
        let room_left = panel_left + margin + RULER_WIDTH;
        let (min_x, min_y, max_x, max_y) = lineup.bounds.unwrap_or_default();
        let framing = Framing {
            panel_center: (
                room_left + room_x / 2.0,
                TITLE_BAND_HEIGHT as f32 + panel_height / 2.0,
            ),
            center: ((min_x + max_x) / 2.0, (min_y + max_y) / 2.0),
            scale,
            shift: 0.0,
        };
        for (figure, &shift) in scene.figures.iter().zip(&lineup.shifts) {
            let framing = Framing { shift, ..framing };
            draw_view(&mut pixmap, figure, scene.bones, view, &framing);
        }
        if lineup.bounds.is_some() {
            draw_ruler(&mut pixmap, room_left - RULER_GAP, &framing, min_y, max_y);
        }
        draw_text(
            &mut pixmap,
            view.label(),
            panel_left + 6.0,
            TITLE_BAND_HEIGHT as f32 + 4.0,
            LABEL_SCALE,
            TEXT,
        );
    }

    // A rule under the title and between the views.
    let rule = paint(TEXT, false);
    let identity = tiny_skia::Transform::identity();
    let lines = [
        Rect::from_xywh(0.0, TITLE_BAND_HEIGHT as f32 - 1.0, size.width as f32, 1.0),
        Rect::from_xywh(
            panel_width.floor(),
            TITLE_BAND_HEIGHT as f32,
            1.0,
            panel_height,
        ),
    ];
    for line in lines.into_iter().flatten() {
        pixmap.fill_rect(line, &rule, identity, None);
    }
    let (title, scale) = fit_title(scene.title, size.width);
    let title_top = (TITLE_BAND_HEIGHT as f32 - 8.0 * scale) / 2.0;
    draw_text(&mut pixmap, &title, 8.0, title_top, scale, TEXT);

    pixmap
        .encode_png()
        .map_err(|error| RenderError::Png(error.to_string()))
}

/// A vertical ruler at pixel column `x` from model height `low` (labelled
/// 0) to `high`, with a labelled tick every round step in model units.
fn draw_ruler(pixmap: &mut Pixmap, x: f32, framing: &Framing, low: f32, high: f32) {
    let ruler = paint(RULER, false);
    let identity = tiny_skia::Transform::identity();
    let (bottom, top) = (framing.row(low), framing.row(high));
    if let Some(line) = Rect::from_xywh(x, top, 1.0, (bottom - top).max(1.0)) {
        pixmap.fill_rect(line, &ruler, identity, None);
    }
    let step = tick_step(MIN_TICK_PIXELS / framing.scale);
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    // The panel's height bounds the ticks; the cap guards against rounding.
    let max_ticks = ((bottom - top) / MIN_TICK_PIXELS) as usize + 1;
    for tick in 0..=max_ticks {
        let height = tick as f32 * step;
        if height > high - low {
            break;
        }
        let row = framing.row(low + height);
        if let Some(mark) = Rect::from_xywh(x - 6.0, row, 6.0, 1.0) {
            pixmap.fill_rect(mark, &ruler, identity, None);
        }
        let label = format!("{height:.decimals$}");
        let left = x - 8.0 - label.chars().count() as f32 * 8.0 * LABEL_SCALE;
        draw_text(pixmap, &label, left, row - 4.0, LABEL_SCALE, RULER);
    }
}

/// The smallest round step (1, 2 or 5 times a power of ten) of at least
/// `least` model units; 1 when `least` is not a positive number.
fn tick_step(least: f32) -> f32 {
    if !(least.is_finite() && least > 0.0) {
        return 1.0;
    }
    let power = 10f32.powf(least.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|multiple| multiple * power)
        .find(|&step| step >= least)
        .unwrap_or(10.0 * power)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> Pixmap {
        Pixmap::decode_png(png).unwrap()
    }

    fn rgb_at(pixmap: &Pixmap, x: u32, y: u32) -> [u8; 3] {
        // The image is opaque, so premultiplied and plain colors agree.
        let pixel = pixmap.pixel(x, y).unwrap();
        [pixel.red(), pixel.green(), pixel.blue()]
    }

    /// The colours of a picture's pixels, counted.
    fn colours(pixmap: &Pixmap) -> std::collections::HashMap<[u8; 3], usize> {
        let mut counted = std::collections::HashMap::new();
        for pixel in pixmap.pixels() {
            *counted
                .entry([pixel.red(), pixel.green(), pixel.blue()])
                .or_insert(0) += 1;
        }
        counted
    }

    #[test]
    fn a_mesh_with_an_image_shows_the_image() {
        // A square facing the viewer (lit fully in front), its left half
        // on the image's red column, its right half on its blue one.
        let positions = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        let triangles = [[0, 1, 2], [0, 2, 3]];
        let uvs = [[0.25, 1.0], [0.75, 1.0], [0.75, 0.0], [0.25, 0.0]];
        let red_blue = [255, 0, 0, 255, 0, 0, 255, 255];
        let texture = Texture {
            width: 2,
            height: 1,
            rgba: &red_blue,
        };
        let picture = |texture: Option<Texture>| {
            let meshes = [RenderMesh {
                positions: &positions,
                triangles: &triangles,
                uvs: &uvs,
                texture,
            }];
            let figures = [Figure {
                joints: &[],
                meshes: &meshes,
                axes: Axes::RightHandedYUp,
            }];
            decode(&render_png(&scene(&figures), ImageSize::default()).unwrap())
        };
        let textured = colours(&picture(Some(texture)));
        let reddish = |rgb: &[u8; 3]| rgb[0] > 100 && rgb[1] < 30 && rgb[2] < 30;
        let bluish = |rgb: &[u8; 3]| rgb[2] > 100 && rgb[0] < 30 && rgb[1] < 30;
        let count = |test: &dyn Fn(&[u8; 3]) -> bool,
                     counted: &std::collections::HashMap<[u8; 3], usize>| {
            counted
                .iter()
                .filter(|(rgb, _)| test(rgb))
                .map(|(_, n)| n)
                .sum::<usize>()
        };
        assert!(count(&reddish, &textured) > 1000, "{textured:?}");
        assert!(count(&bluish, &textured) > 1000, "{textured:?}");
        let plain = colours(&picture(None));
        assert_eq!(count(&reddish, &plain) + count(&bluish, &plain), 0);
    }

    #[test]
    fn an_image_of_the_wrong_size_is_an_error() {
        let positions = [Vec3::ZERO];
        let meshes = [RenderMesh {
            positions: &positions,
            triangles: &[],
            uvs: &[[0.0, 0.0]],
            texture: Some(Texture {
                width: 2,
                height: 2,
                rgba: &[0; 12],
            }),
        }];
        let figures = [Figure {
            joints: &[],
            meshes: &meshes,
            axes: Axes::RightHandedYUp,
        }];
        assert_eq!(
            render_png(&scene(&figures), ImageSize::default()).unwrap_err(),
            RenderError::TextureSize {
                mesh: 0,
                width: 2,
                height: 2,
                bytes: 12
            }
        );
    }

    fn scene<'a>(figures: &'a [Figure<'a>]) -> Scene<'a> {
        Scene {
            figures,
            title: "test",
            bones: true,
        }
    }

    fn bones_only(joints: &[RenderJoint]) -> Figure<'_> {
        Figure {
            joints,
            meshes: &[],
            axes: Axes::RightHandedYUp,
        }
    }

    /// Where a panel's figures are centered: in the room right of the ruler.
    fn room_center_column(panel_width: f32, margin: f32) -> f32 {
        let room_left = margin + RULER_WIDTH;
        room_left + (panel_width - 2.0 * margin - RULER_WIDTH) / 2.0
    }

    /// A standing figure: pelvis at y = 2, head at y = 4, feet at y = 0, and a
    /// 2x4 quad in the z = 0 plane behind the bones, facing the viewer.
    fn figure() -> (Vec<RenderJoint>, Vec<Vec3>, Vec<[u32; 3]>) {
        let joints = vec![
            RenderJoint {
                position: Vec3::new(0.0, 2.0, 0.0),
                parent: None,
            },
            RenderJoint {
                position: Vec3::new(0.0, 4.0, 0.0),
                parent: Some(0),
            },
            RenderJoint {
                position: Vec3::new(-0.5, 0.0, 0.0),
                parent: Some(0),
            },
            RenderJoint {
                position: Vec3::new(0.5, 0.0, 0.0),
                parent: Some(0),
            },
        ];
        let quad = vec![
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 4.0, 0.0),
            Vec3::new(-1.0, 4.0, 0.0),
        ];
        (joints, quad, vec![[0, 1, 2], [0, 2, 3]])
    }

    /// A vertical chain of bones from y = 0 to y = `height` at x = 0.
    fn pole(height: f32) -> Vec<RenderJoint> {
        vec![
            RenderJoint {
                position: Vec3::ZERO,
                parent: None,
            },
            RenderJoint {
                position: Vec3::new(0.0, height, 0.0),
                parent: Some(0),
            },
        ]
    }

    /// The columns and rows of the front panel (x below `width / 2`) where
    /// a pixel has the color.
    fn front_pixels(image: &Pixmap, rgb: [u8; 3]) -> Vec<(u32, u32)> {
        (TITLE_BAND_HEIGHT..image.height())
            .flat_map(|y| (0..image.width() / 2).map(move |x| (x, y)))
            .filter(|&(x, y)| rgb_at(image, x, y) == rgb)
            .collect()
    }

    /// The standing figure drawn at the default size, bones or not.
    fn figure_picture(bones: bool) -> Pixmap {
        let (joints, positions, triangles) = figure();
        let meshes = [RenderMesh {
            positions: &positions,
            triangles: &triangles,
            uvs: &[],
            texture: None,
        }];
        let figures = [Figure {
            joints: &joints,
            meshes: &meshes,
            axes: Axes::RightHandedYUp,
        }];
        let scene = Scene {
            figures: &figures,
            title: "adult-skeleton.cmx",
            bones,
        };
        decode(&render_png(&scene, ImageSize::default()).unwrap())
    }

    #[test]
    fn figure_is_framed_with_bones_over_the_mesh() {
        let image = figure_picture(true);
        assert_eq!((image.width(), image.height()), (800, 600));

        for (x, y) in [(0, 0), (799, 0), (0, 599), (799, 599)] {
            assert_eq!(rgb_at(&image, x, y), BACKGROUND, "corner ({x}, {y})");
        }

        // The figure's box is centered in the room right of each panel's
        // ruler: the spine (x = 0 in front, z = 0 in the side view) is that
        // room's middle column, from y = 2 to y = 4 model units: the upper
        // half of the box.
        let margin = 24.0;
        let center = room_center_column(400.0, margin) as u32;
        let views_middle_row = TITLE_BAND_HEIGHT + (600 - TITLE_BAND_HEIGHT) / 2;
        for spine_column in [center, 400 + center] {
            let above_middle = views_middle_row - 40;
            assert_eq!(rgb_at(&image, spine_column, above_middle), BONE);
        }

        // In front, the quad fills the box around the bones: a point halfway
        // between the spine and the quad's right edge is lit mesh, facing
        // the light's z component: intensity 0.3 + 0.7 * (1 / |(-0.4, 0.6, 1)|).
        let facing = 1.0 / Vec3::new(-0.4, 0.6, 1.0).length();
        let intensity = 0.3 + 0.7 * facing;
        let expected_mesh = MESH.map(|channel| (f32::from(channel) * intensity).round() as u8);
        // The box is 4 units tall and 2 wide: the height sets the scale.
        let fit_scale = (600.0 - TITLE_BAND_HEIGHT as f32 - 2.0 * margin) / 4.0;
        let quarter_width = (0.5 * fit_scale) as u32;
        assert_eq!(
            rgb_at(&image, center + quarter_width, views_middle_row + 40),
            expected_mesh
        );
        // Outside the quad's box, in the front panel, is background.
        assert_eq!(
            rgb_at(&image, center + 2 * quarter_width + 20, views_middle_row),
            BACKGROUND
        );

        // The title band holds text pixels.
        let title_pixels = (0..TITLE_BAND_HEIGHT - 2)
            .flat_map(|y| (0..400).map(move |x| (x, y)))
            .filter(|&(x, y)| rgb_at(&image, x, y) == TEXT)
            .count();
        assert!(title_pixels > 50, "{title_pixels} title pixels");
    }

    #[test]
    fn a_mesh_without_triangles_is_drawn_at_its_vertices() {
        let (joints, positions, _) = figure();
        let meshes = [RenderMesh {
            positions: &positions,
            triangles: &[],
            uvs: &[],
            texture: None,
        }];
        let figures = [Figure {
            joints: &joints,
            meshes: &meshes,
            axes: Axes::RightHandedYUp,
        }];
        let image = decode(&render_png(&scene(&figures), ImageSize::default()).unwrap());
        // The quad's four corners, each a few mesh-colored pixels, and
        // nothing between them.
        let vertex = shaded(MESH, VERTEX_LIGHT);
        let drawn = front_pixels(&image, vertex);
        assert!(
            (4..=4 * 16).contains(&drawn.len()),
            "{} vertex pixels",
            drawn.len()
        );
        let (joints_only, _, _) = figure();
        let bare = [Figure {
            joints: &joints_only,
            meshes: &[],
            axes: Axes::RightHandedYUp,
        }];
        let without = decode(&render_png(&scene(&bare), ImageSize::default()).unwrap());
        assert!(front_pixels(&without, vertex).is_empty());
    }

    #[test]
    fn nearer_triangles_cover_farther_ones_whatever_the_input_order() {
        // A facing square at z = 1 (near) and one at z = -1 (far), tilted so
        // it shades differently, overlapping on the left half.
        let near = [
            Vec3::new(0.0, 0.0, 1.0),
            Vec3::new(2.0, 0.0, 1.0),
            Vec3::new(2.0, 2.0, 1.0),
            Vec3::new(0.0, 2.0, 1.0),
        ];
        let far = [
            Vec3::new(-2.0, 0.0, -1.5),
            Vec3::new(1.0, 0.0, -0.5),
            Vec3::new(1.0, 2.0, -0.5),
            Vec3::new(-2.0, 2.0, -1.5),
        ];
        let triangles = [[0, 1, 2], [0, 2, 3]];
        let near_mesh = RenderMesh {
            positions: &near,
            triangles: &triangles,
            uvs: &[],
            texture: None,
        };
        let far_mesh = RenderMesh {
            positions: &far,
            triangles: &triangles,
            uvs: &[],
            texture: None,
        };
        let size = ImageSize {
            width: 400,
            height: 300,
        };
        for meshes in [[near_mesh, far_mesh], [far_mesh, near_mesh]] {
            let figures = [Figure {
                joints: &[],
                meshes: &meshes,
                axes: Axes::RightHandedYUp,
            }];
            let image = decode(&render_png(&scene(&figures), size).unwrap());
            // Front panel: 200 wide with 12-pixel margins; x from -2 to 2
            // is centered in the room right of the ruler, 112 pixels wide:
            // 112 / 4 = 28 pixels per unit (the side view and the heights
            // allow more). Model x = 0.5 (overlap), 1.5 (near only),
            // -1.5 (far only).
            let center = room_center_column(200.0, 12.0);
            let column = |x: f32| (center + x * 28.0) as u32;
            let middle_row = TITLE_BAND_HEIGHT + (300 - TITLE_BAND_HEIGHT) / 2;
            let overlap = rgb_at(&image, column(0.5), middle_row);
            let near_only = rgb_at(&image, column(1.5), middle_row);
            let far_only = rgb_at(&image, column(-1.5), middle_row);
            assert_eq!(overlap, near_only);
            assert_ne!(overlap, far_only);
            assert_ne!(far_only, BACKGROUND);
        }
    }

    #[test]
    fn a_scene_is_drawn_in_right_handed_y_up_axes() {
        // One bone from the origin to (1, 1, 0) in each kind of axes; turned
        // by hand to right-handed y up, every one must draw the same picture.
        let draw = |axes: Axes, tip: Vec3| {
            let joints = [
                RenderJoint {
                    position: Vec3::ZERO,
                    parent: None,
                },
                RenderJoint {
                    position: tip,
                    parent: Some(0),
                },
            ];
            let figures = [Figure {
                axes,
                ..bones_only(&joints)
            }];
            render_png(&scene(&figures), ImageSize::default()).unwrap()
        };
        let expected = draw(Axes::RightHandedYUp, Vec3::new(1.0, 1.0, 0.0));
        assert_eq!(
            draw(Axes::LeftHandedYUp, Vec3::new(-1.0, 1.0, 0.0)),
            expected
        );
        assert_eq!(
            draw(Axes::RightHandedZUp, Vec3::new(1.0, 0.0, 1.0)),
            expected
        );
        assert_ne!(
            draw(Axes::RightHandedYUp, Vec3::new(-1.0, 1.0, 0.0)),
            expected
        );
    }

    #[test]
    fn figures_stand_side_by_side_at_one_scale() {
        let short = pole(2.0);
        let tall = pole(4.0);
        let figures = [bones_only(&short), bones_only(&tall)];
        let image = decode(&render_png(&scene(&figures), ImageSize::default()).unwrap());
        // The bone pixels of the front panel fall in two columns; the tall
        // figure's column is twice as high, and both stand on one row.
        let pixels = front_pixels(&image, BONE);
        let middle = pixels.iter().map(|&(x, _)| x).sum::<u32>() / pixels.len() as u32;
        let extent = |left: bool| {
            let rows: Vec<u32> = pixels
                .iter()
                .filter(|&&(x, _)| (x < middle) == left)
                .map(|&(_, y)| y)
                .collect();
            (*rows.iter().min().unwrap(), *rows.iter().max().unwrap())
        };
        let (short_top, short_bottom) = extent(true);
        let (tall_top, tall_bottom) = extent(false);
        assert!(
            short_bottom.abs_diff(tall_bottom) <= 1,
            "{short_bottom} {tall_bottom}"
        );
        // The joint dots hide the same few pixels at both ends of each bone.
        let (short_height, tall_height) = (short_bottom - short_top, tall_bottom - tall_top);
        let hidden = 2 * JOINT_RADIUS as u32;
        assert!(
            (tall_height + hidden).abs_diff(2 * (short_height + hidden)) <= 2,
            "{short_height} {tall_height}"
        );
    }

    #[test]
    fn without_bones_only_the_meshes_are_drawn() {
        let with_bones = figure_picture(true);
        let without = figure_picture(false);
        for color in [BONE, JOINT] {
            assert!(!front_pixels(&with_bones, color).is_empty());
            assert!(front_pixels(&without, color).is_empty());
        }
        // The mesh is drawn all the same: 2 by 4 units at 130 pixels a unit.
        let mesh_pixels = (TITLE_BAND_HEIGHT..600)
            .flat_map(|y| (0..400).map(move |x| (x, y)))
            .filter(|&(x, y)| ![BACKGROUND, TEXT, RULER].contains(&rgb_at(&without, x, y)))
            .count();
        assert!(mesh_pixels.abs_diff(260 * 520) < 2000, "{mesh_pixels}");
    }

    #[test]
    fn the_ruler_spans_the_figures_from_their_lowest_point() {
        let joints = pole(4.0);
        let figures = [bones_only(&joints)];
        let image = decode(&render_png(&scene(&figures), ImageSize::default()).unwrap());
        let margin = 24.0;
        let ruler_column = (margin + RULER_WIDTH - RULER_GAP) as u32;
        let scale = (600.0 - TITLE_BAND_HEIGHT as f32 - 2.0 * margin) / 4.0;
        let middle = TITLE_BAND_HEIGHT as f32 + (600.0 - TITLE_BAND_HEIGHT as f32) / 2.0;
        let (top, bottom) = ((middle - 2.0 * scale) as u32, (middle + 2.0 * scale) as u32);
        for row in top + 1..bottom {
            assert_eq!(rgb_at(&image, ruler_column, row), RULER, "row {row}");
        }
        assert_ne!(rgb_at(&image, ruler_column, top - 3), RULER);
        assert_ne!(rgb_at(&image, ruler_column, bottom + 3), RULER);
        // 130 pixels per unit: a tick (6 pixels left of the line) every
        // 0.2 units, the first round step at least 24 pixels long, 0 to 4.
        let step = tick_step(MIN_TICK_PIXELS / scale);
        assert_eq!(step, 0.2);
        let ticks = (top..=bottom)
            .filter(|&row| rgb_at(&image, ruler_column - 3, row) == RULER)
            .count();
        assert_eq!(ticks, 21);
    }

    #[test]
    fn ruler_steps_are_round() {
        assert_eq!(tick_step(0.3), 0.5);
        assert_eq!(tick_step(1.2), 2.0);
        assert_eq!(tick_step(3.0), 5.0);
        assert_eq!(tick_step(7.0), 10.0);
        assert_eq!(tick_step(20.0), 20.0);
        assert_eq!(tick_step(0.0), 1.0);
        assert_eq!(tick_step(f32::NAN), 1.0);
    }

    #[test]
    fn bad_indices_and_sizes_are_errors() {
        let joints = [RenderJoint {
            position: Vec3::ZERO,
            parent: Some(3),
        }];
        let figures = [bones_only(&joints)];
        assert!(matches!(
            render_png(&scene(&figures), ImageSize::default()),
            Err(RenderError::ParentOutOfRange { parent: 3, .. })
        ));

        let positions = [Vec3::ZERO; 2];
        let triangles = [[0, 1, 2]];
        let meshes = [RenderMesh {
            positions: &positions,
            triangles: &triangles,
            uvs: &[],
            texture: None,
        }];
        let figures = [Figure {
            joints: &[],
            meshes: &meshes,
            axes: Axes::RightHandedYUp,
        }];
        assert!(matches!(
            render_png(&scene(&figures), ImageSize::default()),
            Err(RenderError::VertexOutOfRange { vertex: 2, .. })
        ));

        let empty = scene(&[]);
        let sized = |width, height| render_png(&empty, ImageSize { width, height });
        assert!(matches!(sized(0, 600), Err(RenderError::TooSmall { .. })));
        // Refused before anything is allocated: this would take 16 GiB.
        assert!(matches!(
            sized(MAX_SIDE + 1, 65536),
            Err(RenderError::TooLarge { .. })
        ));
        assert!(matches!(
            ImageSize::new(MAX_SIDE, MAX_SIDE + 1),
            Err(RenderError::TooLarge { .. })
        ));
        assert!(ImageSize::new(MAX_SIDE, MIN_HEIGHT).is_ok());
        // Nothing to draw is still a picture.
        assert!(render_png(&empty, ImageSize::default()).is_ok());
    }
}
