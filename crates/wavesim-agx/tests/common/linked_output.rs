//! What an `abi = "mesa-25.0-linked"` fragment job prints, read back: the render targets' images
//! (`[[output]]` lines `rt:` / `rt1:` of u8) and each pixel's tile record (`pixel X Y: B0..B7`).

use std::collections::BTreeMap;

/// The bytes of the output line `NAME: ...` (empty when the job has none).
pub fn image(text: &str, name: &str) -> Vec<u8> {
    let prefix = format!("{name}:");
    text.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .unwrap_or_default()
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect()
}

/// Each pixel's tile record (8 bytes: render target 0 at 0, render target 1 at 4).
pub fn tile_records(text: &str) -> BTreeMap<(u32, u32), Vec<u8>> {
    let mut tile = BTreeMap::new();
    for line in text.lines().filter_map(|l| l.strip_prefix("pixel ")) {
        let Some((xy, rest)) = line.split_once(':') else {
            continue;
        };
        let mut xy = xy.split_whitespace().map(|v| v.parse::<u32>().unwrap());
        let (x, y) = (xy.next().unwrap(), xy.next().unwrap());
        let bytes = rest
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        tile.insert((x, y), bytes);
    }
    tile
}

/// A vertex job's outputs (`vertex V instance I: ... outSLOT=0xWORD`): {(vertex, slot): word}.
pub fn vertex_outputs(text: &str) -> BTreeMap<(u32, u32), u32> {
    let mut got = BTreeMap::new();
    for line in text.lines().filter_map(|l| l.strip_prefix("vertex ")) {
        let Some((head, rest)) = line.split_once(':') else {
            continue;
        };
        let v: u32 = head.split_whitespace().next().unwrap().parse().unwrap();
        for item in rest
            .split_whitespace()
            .filter_map(|i| i.strip_prefix("out"))
        {
            let (slot, value) = item.split_once('=').unwrap();
            let value = u32::from_str_radix(value.trim_start_matches("0x"), 16).unwrap();
            got.insert((v, slot.parse::<u32>().unwrap()), value);
        }
    }
    got
}

/// A vertex reference (`V: SLOT=WORD ...`, words in hex): (vertex, slot, word) in order.
pub fn vertex_reference(text: &str) -> Vec<(u32, u32, u32)> {
    let mut out = vec![];
    for line in text.lines() {
        let (v, rest) = line.split_once(':').unwrap();
        let v: u32 = v.parse().unwrap();
        for item in rest.split_whitespace() {
            let (slot, want) = item.split_once('=').unwrap();
            out.push((
                v,
                slot.parse().unwrap(),
                u32::from_str_radix(want, 16).unwrap(),
            ));
        }
    }
    out
}
