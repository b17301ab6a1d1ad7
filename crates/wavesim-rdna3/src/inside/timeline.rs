//! The timeline of a dispatch in Chrome's trace event format (the JSON `chrome://tracing` and
//! Perfetto open): one process per workgroup, one track (thread) per wave named after its SIMD,
//! complete events ("ph": "X") for instruction spans, s_waitcnt stalls and barrier waits from
//! the cycle model ([`super::CycleModel`]). Timestamps are cycles (the viewer shows them as
//! microseconds).

use super::Span;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The JSON value type of the trace (serde_json's).
pub type Json = Value;

/// The trace as a JSON value: `{"traceEvents": [...], "displayTimeUnit": "ns", ...}`.
pub fn chrome_trace(spans: &[Span], kernel: &str) -> Value {
    let mut events = Vec::with_capacity(spans.len() + 16);
    // Stable ids: workgroups and waves in the order they first appear.
    let mut pids: BTreeMap<[u32; 3], u64> = BTreeMap::new();
    let mut tids: BTreeMap<([u32; 3], u32), (u64, u32)> = BTreeMap::new();
    for s in spans {
        let n = pids.len() as u64;
        pids.entry(s.workgroup).or_insert(n);
        tids.entry((s.workgroup, s.wave))
            .or_insert((s.wave as u64, s.simd));
    }
    for (wg, pid) in &pids {
        events.push(json!({
            "name": "process_name", "ph": "M", "pid": pid, "tid": 0,
            "args": {"name": format!("{kernel} wg ({},{},{})", wg[0], wg[1], wg[2])}
        }));
    }
    for ((wg, wave), (tid, simd)) in &tids {
        events.push(json!({
            "name": "thread_name", "ph": "M", "pid": pids[wg], "tid": tid,
            "args": {"name": format!("SIMD {simd} / wave {wave}")}
        }));
        events.push(json!({
            "name": "thread_sort_index", "ph": "M", "pid": pids[wg], "tid": tid,
            "args": {"sort_index": *simd as u64 * 1024 + *wave as u64}
        }));
    }
    for s in spans {
        events.push(json!({
            "name": s.name, "cat": s.cat, "ph": "X",
            "ts": s.start, "dur": s.dur,
            "pid": pids[&s.workgroup], "tid": s.wave,
            "args": {"pc": format!("{:#x}", s.pc)}
        }));
    }
    json!({
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {"generator": "wavesim issue model", "time_unit": "1 us = 1 cycle"}
    })
}
