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
