//! Fields sharing a line, values present by an earlier field, and checks
//! that refuse values at their line and column, with golden text written
//! by hand.

use super::{Refusal, TextSchema, TextStyle};
use crate::Schema;
use crate::{Count, Layout, RawString};

/// Groups of points: a line `id count`, then the points.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text)]
struct Groups {
    #[schema(style)]
    style: TextStyle,
    id_limit: u32,
    group_count: Count<u32>,
    #[schema(count = group_count, context(id_limit), check = ids_ascending)]
    groups: Vec<Group>,
}

/// A line `id count | centre |`, the points, and maybe a label.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text, context(id_limit: u32))]
struct Group {
    #[schema(check = below(id_limit))]
    id: u32,
    #[schema(same_line)]
    point_count: Count<u32>,
    #[schema(same_line, vector)]
    centre: [f32; 2],
    #[schema(count = point_count, check = links_within(point_count))]
    points: Vec<Point>,
    has_label: u8,
    #[schema(present_if = has_label, line)]
    label: Option<RawString>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(text, one_line)]
struct Point {
    #[schema(none = "-")]
    link: Option<i32>,
    #[schema(check = finite)]
    weight: f32,
}

fn ids_ascending(groups: &[Group]) -> Result<(), Refusal> {
    match groups.windows(2).position(|pair| pair[1].id <= pair[0].id) {
        Some(index) => Err(Refusal::at_element(index + 1, "ids must ascend")),
        None => Ok(()),
    }
}

fn below(id: &u32, limit: &u32) -> Result<(), Refusal> {
    if id < limit {
        Ok(())
    } else {
        Err(Refusal::new(format!("id {id} is not below {limit}")))
    }
}

/// A point's link names another point of its group.
fn links_within(points: &[Point], count: &usize) -> Result<(), Refusal> {
    let outside = points.iter().enumerate().find_map(|(index, point)| {
        let link = point.link?;
        (usize::try_from(link).map_or(true, |link| link >= *count)).then_some((index, link))
    });
    match outside {
        Some((index, link)) => Err(Refusal::at_element(
            index,
            format!("link {link} names none of the {count} points"),
        )),
        None => Ok(()),
    }
}

fn finite(weight: &f32) -> Result<(), Refusal> {
    if weight.is_finite() {
        Ok(())
    } else {
        Err(Refusal::new(format!("weight {weight} is not finite")))
    }
}

const GOLDEN: &str = "10\n\
                      2\n\
                      3 2 | 0.5 1 |\n\
                      - 0.25\n\
                      0 0.75\n\
                      1\n\
                      left arm\n\
                      5 0 | 0 0 |\n\
                      0\n";

fn error_of(text: &str) -> String {
    Groups::from_text(text.as_bytes()).unwrap_err().to_string()
}

#[test]
fn golden_text_reads_and_comes_back_byte_for_byte() {
    let groups = Groups::from_text(GOLDEN.as_bytes()).unwrap();
    let first = &groups.groups[0];
    assert_eq!((first.id, first.centre), (3, [0.5, 1.0]));
    assert_eq!(
        first.points,
        [
            Point {
                link: None,
                weight: 0.25
            },
            Point {
                link: Some(0),
                weight: 0.75
            }
        ]
    );
    assert_eq!(first.label, Some(RawString::from("left arm")));
    assert_eq!(groups.groups[1].label, None);
    assert_eq!(
        String::from_utf8(groups.to_text().unwrap()).unwrap(),
        GOLDEN
    );
}

#[test]
fn shared_lines_and_presence_fail_with_line_column_and_field() {
    assert_eq!(
        error_of(&GOLDEN.replacen("3 2 | 0.5 1 |", "3", 1)),
        "line 3:2: groups[0].point_count: expected an integer, found the end of the line"
    );
    assert_eq!(
        error_of(&GOLDEN.replacen("3 2 | 0.5 1 |", "3 2 | 0.5 1 | 9", 1)),
        "line 3:15: groups[0].centre: unexpected `9` after the last value of the line"
    );
    assert_eq!(
        error_of(&GOLDEN.replacen("3 2 |", "3 9 |", 1)),
        "line 4:1: groups[0].points: count 9 needs at least 9 more lines but only 6 remain"
    );
    assert_eq!(
        error_of(&GOLDEN.replacen("- 0.25", "* 0.25", 1)),
        "line 4:1: groups[0].points[0].link: expected an integer, found `*`"
    );
}

#[test]
fn checks_refuse_values_where_they_stand() {
    assert_eq!(
        error_of(&GOLDEN.replacen("3 2", "30 2", 1)),
        "line 3:1: groups[0].id: id 30 is not below 10"
    );
    assert_eq!(
        error_of(&GOLDEN.replacen("0 0.75", "0 1.#INF", 1)),
        "line 5:3: groups[0].points[1].weight: weight inf is not finite"
    );
    assert_eq!(
        error_of(&GOLDEN.replacen("0 0.75", "2 0.75", 1)),
        "line 5:1: groups[0].points[1]: link 2 names none of the 2 points"
    );
    assert_eq!(
        error_of(&GOLDEN.replacen("5 0", "2 0", 1)),
        "line 8:1: groups[1]: ids must ascend"
    );
}

#[test]
fn a_value_its_flag_disagrees_with_is_a_write_error() {
    let mut groups = Groups::from_text(GOLDEN.as_bytes()).unwrap();
    groups.groups[1].label = Some(RawString::from("extra"));
    assert_eq!(
        groups.to_text().unwrap_err().to_string(),
        "groups[1].label: flag field `has_label` says absent but the value is present"
    );
}

#[test]
fn layouts_say_which_fields_share_a_line() {
    let encodings: Vec<&str> = Group::LAYOUT
        .fields
        .iter()
        .map(|field| field.encoding)
        .collect();
    assert_eq!(
        encodings,
        [
            "line: u32, then the next field on the same line",
            "element count of `points`, on the same line",
            "`| … |` of [f32; 2], on the same line",
            "`point_count` × Point",
            "line: u8",
            "whole line, present when `has_label` is not 0",
        ]
    );
    assert_eq!(Point::LAYOUT.fields[0].encoding, "i32 or `-` for none");
}
