//! A picture of a posed skeleton and its meshes, for `ossuary render`.
//!
//! The image has a title band on top and two views side by side below it,
//! both orthographic, in right-handed y-up axes: the scene's positions are
//! given in the file's own axes and turned first (a left-handed file such as
//! the Sims' is mirrored in x, a z-up one turned), so the front view shows a
//! figure as its game did:
//!
//! - front (left): x to the right, y up, seen from +z;
//! - side (right): z to the right, y up, seen from -x.
//!
//! Both views share one scale, the largest at which each view's bounding box
//! fits its panel less a margin, so the figure fills the picture. Meshes are drawn as
//! flat-shaded triangles, farthest first (painter's algorithm); bones are
//! lines from parent to child drawn over them, and joints are dots.

use formats::rig::Axes;
use glam::Vec3;
use skinning::axes::right_handed_y_up;
use thiserror::Error;
use tiny_skia::{Color, FillRule, LineCap, Paint, PathBuilder, Pixmap, Rect, Stroke};

/// Colors, as RGB.
pub const BACKGROUND: [u8; 3] = [240, 240, 235];
pub const BONE: [u8; 3] = [210, 40, 40];
pub const JOINT: [u8; 3] = [30, 30, 110];
pub const TEXT: [u8; 3] = [20, 20, 20];
/// Mesh color at full light; darker where a face turns from the light.
pub const MESH: [u8; 3] = [190, 170, 140];

/// Height of the title band above the views, in pixels.
pub const TITLE_BAND_HEIGHT: u32 = 32;
const TITLE_SCALE: f32 = 2.0;
const LABEL_SCALE: f32 = 1.0;
const BONE_WIDTH: f32 = 2.5;
const JOINT_RADIUS: f32 = 3.0;
/// Light reaching a face that is edge-on to the light.
const AMBIENT: f32 = 0.3;
/// Smallest image in which two views and a title still make sense.
const MIN_WIDTH: u32 = 64;
const MIN_HEIGHT: u32 = TITLE_BAND_HEIGHT + 32;

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
}

/// Everything one picture shows.
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    pub joints: &'a [RenderJoint],
    pub meshes: &'a [RenderMesh<'a>],
    pub title: &'a str,
    /// How the file's axes lie.
    pub axes: Axes,
}

/// Image size in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageSize {
    pub width: u32,
    pub height: u32,
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
    #[error("could not encode the PNG: {0}")]
    Png(String),
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

/// Where a view lands in the image: model-space view coordinates to pixels.
struct Framing {
    /// Pixel position of the view-space point `center`.
    panel_center: (f32, f32),
    center: (f32, f32),
    /// Pixels per model unit, the same in both views.
    scale: f32,
}

impl Framing {
    fn to_pixel(&self, view_point: Vec3) -> (f32, f32) {
        (
            self.panel_center.0 + (view_point.x - self.center.0) * self.scale,
            // Pixel rows grow downward, model y upward.
            self.panel_center.1 - (view_point.y - self.center.1) * self.scale,
        )
    }
}

/// Bounding rectangle of the finite points, in one view's (right, up) plane.
fn view_bounds(view: View, points: &[Vec3]) -> Option<(f32, f32, f32, f32)> {
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

/// Checks the scene's indices once, so drawing can skip bad ones silently
/// knowing there are none.
fn check(scene: &Scene) -> Result<(), RenderError> {
    let count = scene.joints.len();
    for (joint, entry) in scene.joints.iter().enumerate() {
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
    for (mesh_index, mesh) in scene.meshes.iter().enumerate() {
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

/// A triangle ready to paint: pixel corners, depth toward the viewer, color.
struct PaintedTriangle {
    corners: [(f32, f32); 3],
    depth: f32,
    rgb: [u8; 3],
}

fn draw_view(pixmap: &mut Pixmap, scene: &Scene, view: View, framing: &Framing) {
    let identity = tiny_skia::Transform::identity();
    // Light from the upper left, toward the viewer, in view space.
    let light = Vec3::new(-0.4, 0.6, 1.0).normalize();

    let mut triangles = Vec::new();
    for mesh in scene.meshes {
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
            triangles.push(PaintedTriangle {
                corners: points.map(|point| framing.to_pixel(point)),
                depth: (a.z + b.z + c.z) / 3.0,
                rgb: shaded(MESH, intensity),
            });
        }
    }
    triangles.sort_by(|first, second| first.depth.total_cmp(&second.depth));
    for triangle in &triangles {
        let mut path = PathBuilder::new();
        let [a, b, c] = triangle.corners;
        path.move_to(a.0, a.1);
        path.line_to(b.0, b.1);
        path.line_to(c.0, c.1);
        path.close();
        if let Some(path) = path.finish() {
            // No anti-aliasing: with it, shared edges of neighbouring
            // triangles let the background bleed through as seams.
            let paint = paint(triangle.rgb, false);
            pixmap.fill_path(&path, &paint, FillRule::Winding, identity, None);
        }
    }

    let bone_paint = paint(BONE, true);
    let stroke = Stroke {
        width: BONE_WIDTH,
        line_cap: LineCap::Round,
        ..Stroke::default()
    };
    for joint in scene.joints {
        let Some(parent) = joint
            .parent
            .and_then(|parent| scene.joints.get(parent as usize))
        else {
            continue;
        };
        if !(joint.position.is_finite() && parent.position.is_finite()) {
            continue;
        }
        let from = framing.to_pixel(view.to_view(parent.position));
        let to = framing.to_pixel(view.to_view(joint.position));
        let mut path = PathBuilder::new();
        path.move_to(from.0, from.1);
        path.line_to(to.0, to.1);
        if let Some(path) = path.finish() {
            pixmap.stroke_path(&path, &bone_paint, &stroke, identity, None);
        }
    }

    let joint_paint = paint(JOINT, true);
    for joint in scene.joints {
        if !joint.position.is_finite() {
            continue;
        }
        let (x, y) = framing.to_pixel(view.to_view(joint.position));
        if let Some(dot) = PathBuilder::from_circle(x, y, JOINT_RADIUS) {
            pixmap.fill_path(&dot, &joint_paint, FillRule::Winding, identity, None);
        }
    }
}

/// Draws the scene and returns the picture as PNG bytes.
pub fn render_png(scene: &Scene, size: ImageSize) -> Result<Vec<u8>, RenderError> {
    check(scene)?;
    let turn = |position: Vec3| right_handed_y_up(scene.axes, position);
    let joints: Vec<RenderJoint> = scene
        .joints
        .iter()
        .map(|joint| RenderJoint {
            position: turn(joint.position),
            ..*joint
        })
        .collect();
    let positions: Vec<Vec<Vec3>> = scene
        .meshes
        .iter()
        .map(|mesh| mesh.positions.iter().copied().map(turn).collect())
        .collect();
    let meshes: Vec<RenderMesh> = scene
        .meshes
        .iter()
        .zip(&positions)
        .map(|(mesh, positions)| RenderMesh {
            positions,
            triangles: mesh.triangles,
        })
        .collect();
    draw(
        &Scene {
            joints: &joints,
            meshes: &meshes,
            axes: Axes::RightHandedYUp,
            ..*scene
        },
        size,
    )
}

/// Draws a scene already in right-handed, y-up axes.
fn draw(scene: &Scene, size: ImageSize) -> Result<Vec<u8>, RenderError> {
    let too_small = RenderError::TooSmall {
        width: size.width,
        height: size.height,
    };
    if size.width < MIN_WIDTH || size.height < MIN_HEIGHT {
        return Err(too_small);
    }
    let mut pixmap = Pixmap::new(size.width, size.height).ok_or(too_small)?;
    let [red, green, blue] = BACKGROUND;
    pixmap.fill(Color::from_rgba8(red, green, blue, 255));

    let panel_width = size.width as f32 / 2.0;
    let panel_height = (size.height - TITLE_BAND_HEIGHT) as f32;
    // Room around the figure, and for the view label at the top.
    let margin = (panel_width.min(panel_height) * 0.06).max(12.0);

    let mut points: Vec<Vec3> = scene.joints.iter().map(|joint| joint.position).collect();
    for mesh in scene.meshes {
        points.extend_from_slice(mesh.positions);
    }
    let views = [View::Front, View::Side];
    let bounds = views.map(|view| view_bounds(view, &points));
    // One scale for both views (their heights are the same model extent),
    // the largest at which each view's box fits inside its panel.
    let scale = bounds
        .iter()
        .flatten()
        .map(|&(min_x, min_y, max_x, max_y)| {
            let fit_x = (panel_width - 2.0 * margin) / (max_x - min_x);
            let fit_y = (panel_height - 2.0 * margin) / (max_y - min_y);
            fit_x.min(fit_y)
        })
        .fold(f32::INFINITY, f32::min);
    // A single point (or nothing) has no extent to fit; any scale will do.
    let scale = if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        1.0
    };

    for (index, (view, bounds)) in views.into_iter().zip(bounds).enumerate() {
        let panel_left = index as f32 * panel_width;
        let (min_x, min_y, max_x, max_y) = bounds.unwrap_or_default();
        let framing = Framing {
            panel_center: (
                panel_left + panel_width / 2.0,
                TITLE_BAND_HEIGHT as f32 + panel_height / 2.0,
            ),
            center: ((min_x + max_x) / 2.0, (min_y + max_y) / 2.0),
            scale,
        };
        draw_view(&mut pixmap, scene, view, &framing);
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

    #[test]
    fn figure_is_framed_with_bones_over_the_mesh() {
        let (joints, positions, triangles) = figure();
        let meshes = [RenderMesh {
            positions: &positions,
            triangles: &triangles,
        }];
        let scene = Scene {
            joints: &joints,
            meshes: &meshes,
            title: "adult-skeleton.cmx",
            axes: Axes::RightHandedYUp,
        };
        let size = ImageSize::default();
        let image = decode(&render_png(&scene, size).unwrap());
        assert_eq!((image.width(), image.height()), (800, 600));

        for (x, y) in [(0, 0), (799, 0), (0, 599), (799, 599)] {
            assert_eq!(rgb_at(&image, x, y), BACKGROUND, "corner ({x}, {y})");
        }

        // The figure's box is centered in each 400-pixel panel: the spine
        // (x = 0 in front, z = 0 in the side view) is the panel's middle
        // column, from y = 2 to y = 4 model units: the upper half of the box.
        let views_middle_row = TITLE_BAND_HEIGHT + (600 - TITLE_BAND_HEIGHT) / 2;
        for spine_column in [200, 600] {
            let above_middle = views_middle_row - 40;
            assert_eq!(rgb_at(&image, spine_column, above_middle), BONE);
        }

        // In front, the quad fills the box around the bones: a point halfway
        // between the spine and the quad's right edge is lit mesh, facing
        // the light's z component: intensity 0.3 + 0.7 * (1 / |(-0.4, 0.6, 1)|).
        let facing = 1.0 / Vec3::new(-0.4, 0.6, 1.0).length();
        let intensity = 0.3 + 0.7 * facing;
        let expected_mesh = MESH.map(|channel| (f32::from(channel) * intensity).round() as u8);
        let fit_scale = (600.0 - TITLE_BAND_HEIGHT as f32 - 2.0 * 24.0) / 4.0;
        let quarter_width = (0.5 * fit_scale) as u32;
        assert_eq!(
            rgb_at(&image, 200 + quarter_width, views_middle_row + 40),
            expected_mesh
        );
        // Outside the quad's box, in the front panel, is background.
        assert_eq!(rgb_at(&image, 20, views_middle_row), BACKGROUND);

        // The title band holds text pixels.
        let title_pixels = (0..TITLE_BAND_HEIGHT - 2)
            .flat_map(|y| (0..400).map(move |x| (x, y)))
            .filter(|&(x, y)| rgb_at(&image, x, y) == TEXT)
            .count();
        assert!(title_pixels > 50, "{title_pixels} title pixels");
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
        };
        let far_mesh = RenderMesh {
            positions: &far,
            triangles: &triangles,
        };
        let size = ImageSize {
            width: 400,
            height: 300,
        };
        for meshes in [[near_mesh, far_mesh], [far_mesh, near_mesh]] {
            let scene = Scene {
                joints: &[],
                meshes: &meshes,
                title: "",
                axes: Axes::RightHandedYUp,
            };
            let image = decode(&render_png(&scene, size).unwrap());
            // Front panel: 200 wide, x from -2 to 2 centered at column 100.
            // Model x = 0.5 (overlap), 1.5 (near only), -1.5 (far only).
            let middle_row = TITLE_BAND_HEIGHT + (300 - TITLE_BAND_HEIGHT) / 2;
            // Scale: the front box is 4 wide in a 200-pixel panel less two
            // 12-pixel margins, 176 / 4 = 44 pixels per unit (the side view
            // and the heights allow more).
            let overlap = rgb_at(&image, 100 + 22, middle_row);
            let near_only = rgb_at(&image, 100 + 66, middle_row);
            let far_only = rgb_at(&image, 100 - 66, middle_row);
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
            let scene = Scene {
                joints: &joints,
                meshes: &[],
                title: "axes",
                axes,
            };
            render_png(&scene, ImageSize::default()).unwrap()
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
    fn bad_indices_and_sizes_are_errors() {
        let joints = [RenderJoint {
            position: Vec3::ZERO,
            parent: Some(3),
        }];
        let scene = Scene {
            joints: &joints,
            meshes: &[],
            title: "x",
            axes: Axes::RightHandedYUp,
        };
        assert!(matches!(
            render_png(&scene, ImageSize::default()),
            Err(RenderError::ParentOutOfRange { parent: 3, .. })
        ));

        let positions = [Vec3::ZERO; 2];
        let triangles = [[0, 1, 2]];
        let meshes = [RenderMesh {
            positions: &positions,
            triangles: &triangles,
        }];
        let scene = Scene {
            joints: &[],
            meshes: &meshes,
            title: "x",
            axes: Axes::RightHandedYUp,
        };
        assert!(matches!(
            render_png(&scene, ImageSize::default()),
            Err(RenderError::VertexOutOfRange { vertex: 2, .. })
        ));

        let empty = Scene {
            joints: &[],
            meshes: &[],
            title: "",
            axes: Axes::RightHandedYUp,
        };
        assert!(matches!(
            render_png(
                &empty,
                ImageSize {
                    width: 0,
                    height: 600
                }
            ),
            Err(RenderError::TooSmall { .. })
        ));
        // Nothing to draw is still a picture.
        assert!(render_png(&empty, ImageSize::default()).is_ok());
    }
}
