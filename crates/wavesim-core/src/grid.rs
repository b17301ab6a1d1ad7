//! Dispatch geometry: a grid of work-items cut into workgroups, the same for every ISA (an R700
//! or AGX dispatch is a grid of threads in threadgroups just as an RDNA3 one is).

use crate::error::LaunchError;

/// Most work-items in one workgroup (RDNA3: the RDNA3 ISA guide (Shader Concepts), "Workgroups"; also the OpenCL limit the
/// other back ends' drivers report).
pub const MAX_WORKGROUP_ITEMS: u32 = 1024;

/// Grid shape of a dispatch, in work-items (as AQL and OpenCL count).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub grid: [u32; 3],
    pub local: [u32; 3],
    /// Number of dimensions the user gave (1..=3): `hidden_grid_dims` and the packet's setup.
    pub dims: u16,
    /// OpenCL global work offset (`hidden_global_offset_*`).
    pub offset: [u64; 3],
}

impl Geometry {
    /// A geometry of `dims` dimensions; missing trailing dimensions are 1.
    pub fn new(grid: &[u32], local: &[u32]) -> Result<Geometry, LaunchError> {
        let bad = |m: String| Err(LaunchError(m));
        if grid.is_empty() || grid.len() > 3 || local.len() > 3 {
            return bad("the grid has 1 to 3 dimensions".into());
        }
        if !local.is_empty() && local.len() != grid.len() {
            return bad(format!(
                "--global has {} dimensions but --local has {}",
                grid.len(),
                local.len()
            ));
        }
        let mut g = [1u32; 3];
        let mut l = [1u32; 3];
        g[..grid.len()].copy_from_slice(grid);
        l[..local.len()].copy_from_slice(local);
        let geo = Geometry {
            grid: g,
            local: l,
            dims: grid.len() as u16,
            offset: [0; 3],
        };
        geo.check()?;
        Ok(geo)
    }

    /// The launch rules every back end shares: no zero dimension, 1 to 3 dimensions, at most
    /// [`MAX_WORKGROUP_ITEMS`] work-items per workgroup.
    pub fn check(&self) -> Result<(), LaunchError> {
        let bad = |m: String| Err(LaunchError(m));
        if self.grid.contains(&0) {
            return bad(format!("grid size {:?} has a zero dimension", self.grid));
        }
        if self.local.contains(&0) {
            return bad(format!(
                "workgroup size {:?} has a zero dimension",
                self.local
            ));
        }
        if !(1..=3).contains(&self.dims) {
            return bad(format!("{} grid dimensions", self.dims));
        }
        // Workgroup ids count in u64 (x-fastest): a grid of more workgroups than that is
        // impossible, not "0 workgroups".
        let groups = self.workgroups();
        let mut total = 1u64;
        for (d, &n) in groups.iter().enumerate() {
            total = total.checked_mul(n as u64).ok_or_else(|| {
                LaunchError(format!(
                    "grid of {}x{}x{} workgroups overflows a 64-bit workgroup count at dimension {} ({})",
                    groups[0],
                    groups[1],
                    groups[2],
                    d,
                    ["x", "y", "z"][d]
                ))
            })?;
        }
        let items = self.local.iter().map(|&v| v as u64).product::<u64>();
        if items > MAX_WORKGROUP_ITEMS as u64 {
            return bad(format!(
                "workgroup of {items} work-items ({}x{}x{}); at most {MAX_WORKGROUP_ITEMS}",
                self.local[0], self.local[1], self.local[2]
            ));
        }
        Ok(())
    }

    /// Workgroups per dimension (the last one may be partial).
    #[inline]
    pub fn workgroups(&self) -> [u32; 3] {
        [0, 1, 2].map(|i| self.grid[i].div_ceil(self.local[i]))
    }

    /// Workgroups in the whole grid.
    /// Saturates at `u64::MAX` ([`Geometry::check`] refuses such grids).
    pub fn total_workgroups(&self) -> u64 {
        self.workgroups()
            .iter()
            .fold(1u64, |t, &v| t.saturating_mul(v as u64))
    }

    /// The id of workgroup number `i` in x-fastest order.
    #[inline]
    pub fn workgroup_id(&self, i: u64) -> [u32; 3] {
        let c = self.workgroups().map(|v| v as u64);
        [
            (i % c[0]) as u32,
            ((i / c[0]) % c[1]) as u32,
            (i / (c[0] * c[1])) as u32,
        ]
    }

    /// Work-items of workgroup `wg` per dimension (smaller at the grid's upper edge).
    #[inline]
    pub fn items_in(&self, wg: [u32; 3]) -> [u32; 3] {
        [0, 1, 2].map(|i| {
            let start = wg[i] as u64 * self.local[i] as u64;
            (self.grid[i] as u64 - start).min(self.local[i] as u64) as u32
        })
    }

    /// Waves of a full workgroup with `lanes` work-items per wave.
    pub fn max_waves_per_group_of(&self, lanes: u32) -> u32 {
        let items = self.local[0] * self.local[1] * self.local[2];
        items.div_ceil(lanes)
    }

    /// Waves of a full workgroup (wave32 or wave64, the RDNA3 sizes).
    pub fn max_waves_per_group(&self, wave64: bool) -> u32 {
        self.max_waves_per_group_of(if wave64 { 64 } else { 32 })
    }
}
