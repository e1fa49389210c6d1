//! The `.skn` baselines the text codec is held against: a reader that
//! splits lines and whitespace and calls `str::parse`, and a writer that
//! prints with `{}`. Neither keeps the file's style, checks what it reads
//! beyond the numbers' syntax, or reports a line and column: that is the
//! fidelity ossuary's codec pays for.

use std::fmt::Write as _;

use formats::schema::RawString;
use formats::sims::skn::{Binding, Blend, Skn, Vertex};

/// Why the naive reader gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Malformed;

struct Lines<'a>(std::str::Lines<'a>);

impl<'a> Lines<'a> {
    fn line(&mut self) -> Result<&'a str, Malformed> {
        self.0.next().map(str::trim_end).ok_or(Malformed)
    }

    fn numbers<T, const N: usize>(&mut self) -> Result<[T; N], Malformed>
    where
        T: std::str::FromStr + Default + Copy,
    {
        let mut tokens = self.line()?.split_whitespace();
        let mut values = [T::default(); N];
        for value in &mut values {
            *value = tokens
                .next()
                .ok_or(Malformed)?
                .parse()
                .map_err(|_| Malformed)?;
        }
        Ok(values)
    }

    fn list<T>(
        &mut self,
        mut element: impl FnMut(&mut Self) -> Result<T, Malformed>,
    ) -> Result<Vec<T>, Malformed> {
        let [count] = self.numbers::<usize, 1>()?;
        (0..count).map(|_| element(self)).collect()
    }
}

pub fn parse_skn(text: &str) -> Result<Skn, Malformed> {
    let mut lines = Lines(text.lines());
    let name = RawString::from(lines.line()?);
    let texture = RawString::from(lines.line()?);
    let bones = lines.list(|lines| lines.line().map(RawString::from))?;
    let faces = lines.list(|lines| lines.numbers())?;
    let bindings = lines.list(|lines| {
        let [bone, first_vertex, vertex_count, first_blend, blend_count] = lines.numbers()?;
        Ok(Binding {
            bone,
            first_vertex,
            vertex_count,
            first_blend,
            blend_count,
        })
    })?;
    let uvs = lines.list(|lines| lines.numbers())?;
    let blends = lines.list(|lines| {
        let [vertex, raw_weight] = lines.numbers()?;
        Ok(Blend { vertex, raw_weight })
    })?;
    let vertices = lines.list(|lines| {
        let [x, y, z, nx, ny, nz] = lines.numbers()?;
        Ok(Vertex {
            position: [x, y, z],
            normal: [nx, ny, nz],
        })
    })?;
    Ok(Skn {
        style: Default::default(),
        name,
        texture,
        bones,
        faces,
        bindings,
        uvs,
        blends,
        vertices,
    })
}

/// The skin printed with `{}`, CRLF line ends.
pub fn write_skn(skin: &Skn) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_lines(&mut out, skin);
    out
}

fn write_lines(out: &mut String, skin: &Skn) -> std::fmt::Result {
    write!(out, "{}\r\n{}\r\n", skin.name, skin.texture)?;
    write!(out, "{}\r\n", skin.bones.len())?;
    for bone in &skin.bones {
        write!(out, "{bone}\r\n")?;
    }
    write!(out, "{}\r\n", skin.faces.len())?;
    for [a, b, c] in &skin.faces {
        write!(out, "{a} {b} {c}\r\n")?;
    }
    write!(out, "{}\r\n", skin.bindings.len())?;
    for b in &skin.bindings {
        write!(
            out,
            "{} {} {} {} {}\r\n",
            b.bone, b.first_vertex, b.vertex_count, b.first_blend, b.blend_count
        )?;
    }
    write!(out, "{}\r\n", skin.uvs.len())?;
    for [u, v] in &skin.uvs {
        write!(out, "{u} {v}\r\n")?;
    }
    write!(out, "{}\r\n", skin.blends.len())?;
    for blend in &skin.blends {
        write!(out, "{} {}\r\n", blend.vertex, blend.raw_weight)?;
    }
    write!(out, "{}\r\n", skin.vertices.len())?;
    for Vertex { position, normal } in &skin.vertices {
        let [x, y, z] = position;
        let [nx, ny, nz] = normal;
        write!(out, "{x} {y} {z} {nx} {ny} {nz}\r\n")?;
    }
    Ok(())
}
