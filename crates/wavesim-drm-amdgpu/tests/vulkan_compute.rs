//! Vulkan compute programs on RADV through the DRM shim, compared byte for byte with lavapipe
//! running the same SPIR-V (tests/shaders/*.comp, compiled by tests/shaders/build.sh).
//!
//! Each run is a child process (this test binary again, selected by WAVESIM_VK_PROGRAM), so
//! the ICD and LD_PRELOAD apply to it alone. Needs Debian's mesa-vulkan-drivers (RADV and
//! lavapipe), libvulkan1 and vulkan-tools (installed by .ci/run).

use ash::vk;
use std::path::{Path, PathBuf};
use std::process::Command;

// The child runner and Vulkan setup shared with radv_draw.rs, and the triangle of "draw".
#[allow(dead_code)]
mod vulkan_draw;
use vulkan_draw::{require, shim_library, RADV_ICD};

/// One storage buffer: its initial contents.
struct Buf(Vec<u8>);

struct Program {
    spv: &'static str,
    buffers: Vec<Buf>,
    push: Vec<u8>,
    groups: [u32; 3],
    /// Needs shaderInt64/Float64/Int16, 16-bit storage and float16 arithmetic.
    wide_types: bool,
    /// Descriptors per binding (buffers fill them in order); empty: one per buffer.
    bindings: Vec<u32>,
    /// Transfers recorded before the dispatches: vkCmdFillBuffer(buffer, offset, size, data)
    /// and vkCmdCopyBuffer(src, dst, size), each followed by a barrier.
    fill: Option<(usize, u64, u64, u32)>,
    copy: Option<(usize, usize, u64)>,
    /// How many times the dispatch is recorded (with a barrier between).
    repeat: u32,
    /// vkCmdDispatchBase's first workgroup.
    base: [u32; 3],
    /// Push constants made of device addresses (VK_KHR_buffer_device_address): buffer index
    /// and byte offset of each pointer, pushed after `push`.
    pointers: Vec<(usize, u64)>,
    /// Dispatch with vkCmdDispatchIndirect from this buffer (its first 12 bytes: x, y, z).
    indirect: Option<usize>,
    /// How many times the command buffer is submitted; each submission waits for the
    /// previous one's timeline semaphore value and signals the next.
    submits: u64,
}

/// A deterministic input word (a multiplicative hash of the index).
fn input(i: u32) -> u32 {
    (i.wrapping_mul(2_654_435_761) >> 7) ^ i
}

fn words(n: u32, f: impl Fn(u32) -> u32) -> Buf {
    Buf((0..n).flat_map(|i| f(i).to_le_bytes()).collect())
}

fn zeros(bytes: usize) -> Buf {
    Buf(vec![0; bytes])
}

fn program(name: &str) -> Program {
    let p = |spv, buffers, groups| Program {
        spv,
        buffers,
        push: vec![],
        groups,
        wide_types: false,
        bindings: vec![],
        fill: None,
        copy: None,
        repeat: 1,
        base: [0; 3],
        pointers: vec![],
        indirect: None,
        submits: 1,
    };
    match name {
        "arith" => p(
            "arith",
            vec![words(256, input), zeros(1024), zeros(1024)],
            [4, 1, 1],
        ),
        "shared" => p("shared", vec![words(512, input), zeros(2048)], [4, 1, 1]),
        "subgroup" => p("subgroup", vec![words(256, input), zeros(4096)], [2, 1, 1]),
        "atomics" => {
            // counters[8], smax, smin, hist[16]
            let mut c = [0u32; 26];
            c[3] = u32::MAX;
            c[8] = i32::MIN as u32;
            c[9] = i32::MAX as u32;
            p(
                "atomics",
                vec![
                    words(256, |i| input(i) & 0xffff),
                    words(26, |i| c[i as usize]),
                ],
                [4, 1, 1],
            )
        }
        "push" => {
            let mut prog = p(
                "push",
                vec![words(256, input), zeros(1024), zeros(1024)],
                [2, 2, 1],
            );
            prog.push = [
                3u32.to_le_bytes(),
                (-7i32).to_le_bytes(),
                1.5f32.to_le_bytes(),
                1u32.to_le_bytes(),
            ]
            .concat();
            prog
        }
        "types" => Program {
            wide_types: true,
            ..p(
                "types",
                vec![
                    words(128, input),
                    zeros(1024),
                    zeros(1024),
                    zeros(256),
                    zeros(256),
                ],
                [2, 1, 1],
            )
        },
        "indexing" => Program {
            bindings: vec![4, 1],
            ..p(
                "indexing",
                vec![
                    words(64, |i| input(i) & 0xffff),
                    words(64, |i| i * 3),
                    words(64, |i| 1000 + i),
                    words(64, |i| input(i + 7) >> 16),
                    zeros(4 * 64 * 8),
                ],
                [8, 1, 1],
            )
        },
        // vkCmdFillBuffer and vkCmdCopyBuffer (RADV's CP DMA or meta compute shaders), then
        // the shared-memory program three times over the copied input.
        "transfers" => Program {
            fill: Some((1, 256, 1024, 0xdead_beef)),
            copy: Some((0, 1, 1024)),
            repeat: 3,
            ..p("shared", vec![words(512, input), zeros(2048)], [4, 1, 1])
        },
        // 60-64 KiB transfers: RADV 22.3 splits them into several CP DMA packets (with
        // CP_SYNC and RAW_WAIT), then the shared-memory program runs on the copy.
        "big_transfers" => Program {
            fill: Some((1, 4096, 60 * 1024, 0x0bad_cafe)),
            copy: Some((0, 1, 64 * 1024)),
            ..p("shared", vec![words(16384, input), zeros(65536)], [4, 1, 1])
        },
        // Three submissions of the atomics program chained by a timeline semaphore: the
        // counters accumulate over all three.
        "timeline" => {
            let mut prog = program("atomics");
            prog.submits = 3;
            prog
        }
        // vkCmdDispatchIndirect: the grid (4, 1, 1) comes from buffer 2.
        "indirect" => Program {
            bindings: vec![1, 1],
            indirect: Some(2),
            ..p(
                "shared",
                vec![
                    words(512, input),
                    zeros(2048),
                    words(3, |i| [4, 1, 1][i as usize]),
                ],
                [0, 0, 0],
            )
        },
        // A dispatch starting at workgroup (1, 0, 0): RADV programs COMPUTE_START_X, which
        // the shim refuses (reported, the submission fails: the device is lost).
        "dispatch_base" => Program {
            base: [1, 0, 0],
            ..p(
                "arith",
                vec![words(256, input), zeros(1024), zeros(1024)],
                [3, 1, 1],
            )
        },
        "scratch" => p("scratch", vec![words(256, input), zeros(1024)], [4, 1, 1]),
        // Raw device addresses: a[] by descriptor, src and dst by pointer.
        "bda" => Program {
            bindings: vec![1],
            pointers: vec![(1, 0), (2, 0)],
            ..p(
                "bda",
                vec![words(128, |i| i), words(128, input), zeros(512)],
                [2, 1, 1],
            )
        },
        // The source pointer 64 GiB past its buffer: outside every allocation.
        "bda_fault" => Program {
            bindings: vec![1],
            pointers: vec![(1, 1 << 36), (2, 0)],
            ..p(
                "bda",
                vec![words(128, |i| i), words(128, input), zeros(512)],
                [2, 1, 1],
            )
        },
        other => panic!("no program {other}"),
    }
}

fn shader_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shaders")
}

/// Runs `prog` on the Vulkan implementation the environment selects; returns every buffer's
/// final bytes, concatenated.
fn run_vulkan(prog: &Program) -> Result<Vec<u8>, String> {
    let e = |what: &'static str| move |r: vk::Result| format!("{what}: {r:?}");
    let spv =
        std::fs::read(shader_dir().join(format!("{}.spv", prog.spv))).map_err(|x| x.to_string())?;
    let code: Vec<u32> = spv
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    // SAFETY: every Vulkan call below follows the specification's valid usage: objects are
    // created before use and destroyed (with the instance) after the queue is idle.
    unsafe {
        let (_entry, instance, pd) = vulkan_draw::first_device()?;
        let families = instance.get_physical_device_queue_family_properties(pd);
        // A compute-only family (RADV's compute ring) if there is one, else any with compute.
        // WAVESIM_VK_QUEUE=universal: the first family with graphics and compute instead.
        let universal = std::env::var("WAVESIM_VK_QUEUE").is_ok_and(|q| q == "universal");
        let family = families
            .iter()
            .position(|f| {
                f.queue_flags.contains(vk::QueueFlags::COMPUTE)
                    && f.queue_flags.contains(vk::QueueFlags::GRAPHICS) == universal
            })
            .or_else(|| {
                families
                    .iter()
                    .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
            })
            .ok_or("no compute queue")? as u32;
        let prio = [1.0f32];
        let qci = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&prio)];
        let features = vk::PhysicalDeviceFeatures {
            shader_int64: prog.wide_types as u32,
            shader_float64: prog.wide_types as u32,
            shader_int16: prog.wide_types as u32,
            ..Default::default()
        };
        let mut v11 = vk::PhysicalDeviceVulkan11Features::default()
            .storage_buffer16_bit_access(prog.wide_types);
        let bda = !prog.pointers.is_empty();
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default()
            .shader_float16(prog.wide_types)
            .timeline_semaphore(prog.submits > 1)
            .buffer_device_address(bda);
        let mut features = features;
        features.shader_int64 |= bda as u32;
        let dci = vk::DeviceCreateInfo::default()
            .queue_create_infos(&qci)
            .enabled_features(&features)
            .push_next(&mut v11)
            .push_next(&mut v12);
        let device = instance
            .create_device(pd, &dci, None)
            .map_err(e("vkCreateDevice"))?;
        let queue = device.get_device_queue(family, 0);
        let mem_props = instance.get_physical_device_memory_properties(pd);
        let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;

        let mut buffers = Vec::new();
        for b in &prog.buffers {
            let buf = device
                .create_buffer(
                    &vk::BufferCreateInfo::default()
                        .size(b.0.len() as u64)
                        .usage(
                            vk::BufferUsageFlags::STORAGE_BUFFER
                                | vk::BufferUsageFlags::TRANSFER_SRC
                                | vk::BufferUsageFlags::TRANSFER_DST
                                | vk::BufferUsageFlags::INDIRECT_BUFFER
                                | if bda {
                                    vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS
                                } else {
                                    vk::BufferUsageFlags::empty()
                                },
                        )
                        .sharing_mode(vk::SharingMode::EXCLUSIVE),
                    None,
                )
                .map_err(e("vkCreateBuffer"))?;
            let req = device.get_buffer_memory_requirements(buf);
            let ty = (0..mem_props.memory_type_count)
                .find(|&t| {
                    req.memory_type_bits >> t & 1 != 0
                        && mem_props.memory_types[t as usize]
                            .property_flags
                            .contains(want)
                })
                .ok_or("no host-visible coherent memory type")?;
            let mut flags = vk::MemoryAllocateFlagsInfo::default().flags(if bda {
                vk::MemoryAllocateFlags::DEVICE_ADDRESS
            } else {
                vk::MemoryAllocateFlags::empty()
            });
            let mem = device
                .allocate_memory(
                    &vk::MemoryAllocateInfo::default()
                        .allocation_size(req.size)
                        .memory_type_index(ty)
                        .push_next(&mut flags),
                    None,
                )
                .map_err(e("vkAllocateMemory"))?;
            device
                .bind_buffer_memory(buf, mem, 0)
                .map_err(e("vkBindBufferMemory"))?;
            let ptr = device
                .map_memory(mem, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                .map_err(e("vkMapMemory"))? as *mut u8;
            std::ptr::copy_nonoverlapping(b.0.as_ptr(), ptr, b.0.len());
            buffers.push((buf, mem, ptr, b.0.len()));
        }

        let counts = if prog.bindings.is_empty() {
            vec![1; buffers.len()]
        } else {
            prog.bindings.clone()
        };
        let bindings: Vec<_> = counts
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(i as u32)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(n)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        let dsl = device
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            )
            .map_err(e("vkCreateDescriptorSetLayout"))?;
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .size((prog.push.len() + 8 * prog.pointers.len()).max(4) as u32)];
        let layouts = [dsl];
        let mut plci = vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts);
        if !prog.push.is_empty() || !prog.pointers.is_empty() {
            plci = plci.push_constant_ranges(&ranges);
        }
        let pl = device
            .create_pipeline_layout(&plci, None)
            .map_err(e("vkCreatePipelineLayout"))?;
        let module = device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&code), None)
            .map_err(e("vkCreateShaderModule"))?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let pipeline = device
            .create_compute_pipelines(
                vk::PipelineCache::null(),
                &[vk::ComputePipelineCreateInfo::default()
                    .flags(if prog.base == [0; 3] {
                        vk::PipelineCreateFlags::empty()
                    } else {
                        vk::PipelineCreateFlags::DISPATCH_BASE
                    })
                    .stage(stage)
                    .layout(pl)],
                None,
            )
            .map_err(|(_, r)| format!("vkCreateComputePipelines: {r:?}"))?[0];
        let sizes = [vk::DescriptorPoolSize::default()
            .ty(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count(counts.iter().sum())];
        let pool = device
            .create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(1)
                    .pool_sizes(&sizes),
                None,
            )
            .map_err(e("vkCreateDescriptorPool"))?;
        let set = device
            .allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(&layouts),
            )
            .map_err(e("vkAllocateDescriptorSets"))?[0];
        let infos: Vec<[vk::DescriptorBufferInfo; 1]> = buffers
            .iter()
            .map(|b| {
                [vk::DescriptorBufferInfo::default()
                    .buffer(b.0)
                    .range(vk::WHOLE_SIZE)]
            })
            .collect();
        // Buffer k fills the k-th descriptor, binding by binding.
        let slots: Vec<(u32, u32)> = counts
            .iter()
            .enumerate()
            .flat_map(|(b, &n)| (0..n).map(move |e| (b as u32, e)))
            .collect();
        let writes: Vec<_> = infos
            .iter()
            .zip(&slots)
            .map(|(info, &(b, e))| {
                vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(b)
                    .dst_array_element(e)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .buffer_info(info)
            })
            .collect();
        device.update_descriptor_sets(&writes, &[]);

        let (cmd_pool, cb) = vulkan_draw::command_buffer(&device, family)?;
        device
            .begin_command_buffer(
                cb,
                &vk::CommandBufferBeginInfo::default().flags(if prog.submits > 1 {
                    vk::CommandBufferUsageFlags::SIMULTANEOUS_USE
                } else {
                    vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT
                }),
            )
            .map_err(e("vkBeginCommandBuffer"))?;
        let transfer_barrier = vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::TRANSFER_WRITE);
        let to_shader = |cb| {
            device.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::TRANSFER | vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::DependencyFlags::empty(),
                &[transfer_barrier],
                &[],
                &[],
            )
        };
        if let Some((b, off, size, data)) = prog.fill {
            device.cmd_fill_buffer(cb, buffers[b].0, off, size, data);
            to_shader(cb);
        }
        if let Some((src, dst, size)) = prog.copy {
            let region = vk::BufferCopy::default().size(size);
            device.cmd_copy_buffer(cb, buffers[src].0, buffers[dst].0, &[region]);
            to_shader(cb);
        }
        device.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline);
        device.cmd_bind_descriptor_sets(cb, vk::PipelineBindPoint::COMPUTE, pl, 0, &[set], &[]);
        let mut push = prog.push.clone();
        for &(b, off) in &prog.pointers {
            let addr = device.get_buffer_device_address(
                &vk::BufferDeviceAddressInfo::default().buffer(buffers[b].0),
            );
            push.extend_from_slice(&(addr + off).to_le_bytes());
        }
        if !push.is_empty() {
            device.cmd_push_constants(cb, pl, vk::ShaderStageFlags::COMPUTE, 0, &push);
        }
        let [x, y, z] = prog.groups;
        for k in 0..prog.repeat {
            if k > 0 {
                let b = vk::MemoryBarrier::default()
                    .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                    .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE);
                device.cmd_pipeline_barrier(
                    cb,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                    vk::DependencyFlags::empty(),
                    &[b],
                    &[],
                    &[],
                );
            }
            if let Some(b) = prog.indirect {
                device.cmd_dispatch_indirect(cb, buffers[b].0, 0);
            } else if prog.base == [0; 3] {
                device.cmd_dispatch(cb, x, y, z);
            } else {
                let [bx, by, bz] = prog.base;
                device.cmd_dispatch_base(cb, bx, by, bz, x, y, z);
            }
        }
        let barrier = vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ);
        device.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &[barrier],
            &[],
            &[],
        );
        device
            .end_command_buffer(cb)
            .map_err(e("vkEndCommandBuffer"))?;
        let fence = device
            .create_fence(&vk::FenceCreateInfo::default(), None)
            .map_err(e("vkCreateFence"))?;
        let cbs = [cb];
        let mut sem_type = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(0);
        let sem = device
            .create_semaphore(
                &vk::SemaphoreCreateInfo::default().push_next(&mut sem_type),
                None,
            )
            .map_err(e("vkCreateSemaphore"))?;
        for k in 0..prog.submits {
            let sems = [sem];
            let (wait, signal) = ([k], [k + 1]);
            let stages = [vk::PipelineStageFlags::ALL_COMMANDS];
            let mut tl = vk::TimelineSemaphoreSubmitInfo::default()
                .wait_semaphore_values(&wait)
                .signal_semaphore_values(&signal);
            let mut submit = vk::SubmitInfo::default().command_buffers(&cbs);
            if prog.submits > 1 {
                submit = submit.signal_semaphores(&sems).push_next(&mut tl);
                if k > 0 {
                    submit = submit.wait_semaphores(&sems).wait_dst_stage_mask(&stages);
                }
            }
            let last = k + 1 == prog.submits;
            device
                .queue_submit(
                    queue,
                    &[submit],
                    if last { fence } else { vk::Fence::null() },
                )
                .map_err(e("vkQueueSubmit"))?;
        }
        if prog.submits > 1 {
            let (sems, values) = ([sem], [prog.submits]);
            device
                .wait_semaphores(
                    &vk::SemaphoreWaitInfo::default()
                        .semaphores(&sems)
                        .values(&values),
                    u64::MAX,
                )
                .map_err(e("vkWaitSemaphores"))?;
        }
        device
            .wait_for_fences(&[fence], true, u64::MAX)
            .map_err(e("vkWaitForFences"))?;
        device.destroy_semaphore(sem, None);

        let mut out = Vec::new();
        for (_, _, ptr, len) in &buffers {
            out.extend_from_slice(std::slice::from_raw_parts(*ptr, *len));
        }
        device.device_wait_idle().map_err(e("vkDeviceWaitIdle"))?;
        device.destroy_fence(fence, None);
        device.destroy_command_pool(cmd_pool, None);
        device.destroy_descriptor_pool(pool, None);
        device.destroy_pipeline(pipeline, None);
        device.destroy_shader_module(module, None);
        device.destroy_pipeline_layout(pl, None);
        device.destroy_descriptor_set_layout(dsl, None);
        for (buf, mem, _, _) in buffers {
            device.destroy_buffer(buf, None);
            device.free_memory(mem, None);
        }
        device.destroy_device(None);
        instance.destroy_instance(None);
        Ok(out)
    }
}

/// The child process's entry: runs the program WAVESIM_VK_PROGRAM names and writes its
/// buffers to WAVESIM_VK_OUT. Without those variables (a normal test run) it does nothing.
#[test]
fn child_entry() {
    let (Ok(name), Ok(out)) = (
        std::env::var("WAVESIM_VK_PROGRAM"),
        std::env::var("WAVESIM_VK_OUT"),
    ) else {
        return;
    };
    let bytes = if name == "draw" {
        vulkan_draw::draw_triangle()
    } else {
        run_vulkan(&program(&name))
    }
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    std::fs::write(out, bytes).expect("writing the result");
}

/// Runs `name` in a child process on RADV through the shim (`radv`) or on lavapipe, with
/// extra environment variables; returns the buffers.
fn run_child(name: &str, radv: bool, env: &[(&str, &str)]) -> Vec<u8> {
    vulkan_draw::child_bytes(VARS, name, radv, env).unwrap_or_else(|e| panic!("{e}"))
}

/// The child's variables: the program's name and the file it writes its buffers to.
const VARS: (&str, &str) = ("WAVESIM_VK_PROGRAM", "WAVESIM_VK_OUT");

fn child(name: &str, radv: bool, env: &[(&str, &str)]) -> std::process::Output {
    vulkan_draw::child_output(VARS, name, radv, env).0
}

/// RADV through the shim and lavapipe agree byte for byte, and the program changed its
/// output buffers (so agreement is not two untouched copies of the input).
fn compare(name: &str) -> Vec<u8> {
    let lvp = run_child(name, false, &[]);
    let radv = run_child(name, true, &[]);
    let input: Vec<u8> = program(name)
        .buffers
        .iter()
        .flat_map(|b| b.0.clone())
        .collect();
    assert_ne!(lvp, input, "{name}: lavapipe left every buffer as it was");
    assert_eq!(lvp.len(), radv.len());
    if let Some(i) = (0..lvp.len()).find(|&i| lvp[i] != radv[i]) {
        panic!(
            "{name}: RADV on wavesim differs from lavapipe first at byte {i} (dword {}): lavapipe {:02x?}, wavesim {:02x?}",
            i / 4,
            &lvp[i & !3..(i & !3) + 4],
            &radv[i & !3..(i & !3) + 4]
        );
    }
    radv
}

#[test]
fn arith_matches_lavapipe() {
    let out = compare("arith");
    // b[i] = ((x*3 + i + (x >> 3)) ^ (x << 5)) (GLSL: + binds tighter than ^), from the
    // shader's text, for the input hash x = input(i).
    for i in 0..256u32 {
        let x = input(i);
        let want = (x.wrapping_mul(3).wrapping_add(i).wrapping_add(x >> 3)) ^ (x << 5);
        let at = 1024 + 4 * i as usize;
        assert_eq!(
            u32::from_le_bytes(out[at..at + 4].try_into().unwrap()),
            want,
            "b[{i}]"
        );
    }
}

#[test]
fn shared_memory_and_barriers_match_lavapipe() {
    compare("shared");
}

#[test]
fn subgroup_ops_match_lavapipe() {
    let out = compare("subgroup");
    // Every invocation's 8 + 3 checks against the subgroup-size formulas hold.
    for g in 0..256usize {
        let at = 1024 + 16 * g;
        let word =
            |k: usize| u32::from_le_bytes(out[at + 4 * k..at + 4 * k + 4].try_into().unwrap());
        assert_eq!(word(0), 0xff, "checks of invocation {g}");
        assert_eq!(word(3), 7, "ballot checks of invocation {g}");
    }
}

#[test]
fn atomics_match_lavapipe() {
    let out = compare("atomics");
    // counters[0] counts the 256 invocations.
    assert_eq!(u32::from_le_bytes(out[1024..1028].try_into().unwrap()), 256);
    // counters[5] counts the compare-swaps that succeeded: each targets its own element.
    assert_eq!(u32::from_le_bytes(out[1044..1048].try_into().unwrap()), 256);
}

#[test]
fn push_constants_match_lavapipe() {
    compare("push");
}

#[test]
fn wide_and_narrow_types_match_lavapipe() {
    compare("types");
}

/// Descriptor arrays with dynamically uniform and `nonuniformEXT` indices. ACO's waterfall loop
/// addresses `v[63 - i]` as `v_sub_nc_u32 v0, 0, v0` then `buffer_load_b32 v0, v0, s[8:11], 0
/// offen offset:252`: the VGPR offset + instruction offset wraps at 32 bits
/// (wavesim-rdna3's `exec/buffer/address.rs` says which sources decide that).
#[test]
fn descriptor_indexing_matches_lavapipe() {
    compare("indexing");
}

#[test]
fn fill_copy_and_repeated_dispatches_match_lavapipe() {
    compare("transfers");
}

/// Scratch (a dynamically indexed private array): the shim programs the dispatch's per-lane
/// scratch from COMPUTE_TMPRING_SIZE (WAVESIZE 96 x 256 bytes per wave64 = 384 bytes per lane,
/// ACO's "scratch: 384"). Mesa 22.3's ACO encodes the constant-offset stores' unused SADDR as
/// 0x7f (`scratch_store_b32 off, v1, exec_hi` to LLVM's disassembler), which gfx11 treats as
/// "off" (wavesim-rdna3's `decode::scratch_saddr` names the sources).
#[test]
fn scratch_matches_lavapipe() {
    compare("scratch");
}

#[test]
fn large_chunked_transfers_match_lavapipe() {
    compare("big_transfers");
}

#[test]
fn timeline_semaphore_chained_submissions_match_lavapipe() {
    let out = compare("timeline");
    // counters[0] counts 256 invocations in each of the three submissions.
    assert_eq!(u32::from_le_bytes(out[1024..1028].try_into().unwrap()), 768);
}

#[test]
fn indirect_dispatch_matches_lavapipe() {
    compare("indirect");
}

#[test]
fn buffer_device_addresses_match_lavapipe() {
    compare("bda");
}

/// A shader that reads 64 GiB past its buffer: the dispatch's sandbox (the VA-mapped ranges)
/// stops it with a message naming the instruction, lane and address; the submission fails and
/// the application gets VK_ERROR_DEVICE_LOST instead of reading host memory or crashing.
#[test]
fn out_of_bounds_pointer_is_a_reported_fault() {
    expect_reported(
        "bda_fault",
        &[
            "outside the host address ranges",
            "lane 0",
            "ERROR_DEVICE_LOST",
        ],
    );
}

/// Runs `name` on RADV through the shim, expecting it to fail cleanly: an exit status (not a
/// signal), and stderr naming each of `needles`.
fn expect_reported(name: &str, needles: &[&str]) {
    let o = child(name, true, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.code().is_some(),
        "the child died of a signal: {err}"
    );
    assert!(!o.status.success(), "{name} succeeded");
    for n in needles {
        assert!(err.contains(n), "{name}: no `{n}` in:\n{err}");
    }
}

/// Wave32 compute (RADV_PERFTEST=cswave32) runs the same programs on the other wave size.
#[test]
fn wave32_matches_lavapipe() {
    for name in ["arith", "shared", "subgroup", "atomics"] {
        let lvp = run_child(name, false, &[]);
        let radv = run_child(name, true, &[("RADV_PERFTEST", "cswave32")]);
        assert!(
            lvp == radv,
            "{name}: wave32 RADV on wavesim differs from lavapipe"
        );
    }
}

/// Compute on RADV's graphics queue family (the universal ring): its preamble
/// (CONTEXT_CONTROL, CLEAR_STATE, context and graphics SH registers) is recorded as graphics
/// state, and the dispatches run as on the compute ring.
#[test]
fn compute_on_the_graphics_queue_matches_lavapipe() {
    for name in ["arith", "shared", "atomics"] {
        let lvp = run_child(name, false, &[]);
        let radv = run_child(name, true, &[("WAVESIM_VK_QUEUE", "universal")]);
        assert!(
            lvp == radv,
            "{name}: RADV's graphics queue on wavesim differs from lavapipe"
        );
    }
}

/// What the shim does not support fails the submission with a message naming it; the
/// application gets VK_ERROR_DEVICE_LOST and goes on (no crash).
#[test]
fn unsupported_work_is_reported_not_crashed() {
    expect_reported(
        "dispatch_base",
        &["COMPUTE_START_X/Y/Z", "ERROR_DEVICE_LOST"],
    );
}

#[test]
fn vulkaninfo_lists_the_emulated_gfx1100() {
    require(RADV_ICD, "mesa-vulkan-drivers");
    let o = Command::new("vulkaninfo")
        .arg("--summary")
        .env("VK_ICD_FILENAMES", RADV_ICD)
        .env("LD_PRELOAD", shim_library())
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .output()
        .expect("vulkaninfo (Debian's vulkan-tools)");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "vulkaninfo failed:\n{text}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(text.contains("deviceID           = 0x744c"), "{text}");
    assert!(text.contains("(RADV GFX1100)"), "{text}");
    assert!(text.contains("DRIVER_ID_MESA_RADV"), "{text}");
    // Everything RADV and libdrm asked while creating the device was answered.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("wavesim-drm:"), "{err}");
}

/// A triangle drawn through RADV's graphics ring (tests/vulkan_draw: the `tri` pipeline, a
/// render pass that clears the target): lavapipe renders it; on the shim the submission is
/// refused at the first draw (RADV's clear) with a message naming it, the application gets
/// VK_ERROR_DEVICE_LOST and exits normally, and with WAVESIM_DRM_CAPTURE both draws are
/// captured with the very programs tests/graphics/capture.sh committed (RADV compiles the same
/// SPIR-V to the same code).
#[test]
fn draws_are_refused_by_name_and_captured() {
    // lavapipe: the clear colour (0, 0, 0, 255) in a corner, the triangle's interpolated
    // colour (alpha 255, not black) at the centre.
    let img = run_child("draw", false, &[]);
    let px = |x: usize, y: usize| &img[4 * (64 * y + x)..4 * (64 * y + x) + 4];
    assert_eq!(px(0, 0), [0, 0, 0, 255]);
    assert!(
        px(32, 32)[3] == 255 && px(32, 32)[..3] != [0, 0, 0],
        "{:?}",
        px(32, 32)
    );

    let dir = std::env::temp_dir().join(format!("wavesim-vk-capture-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("capture directory");
    let o = child(
        "draw",
        true,
        &[("WAVESIM_DRM_CAPTURE", dir.to_str().expect("utf-8 path"))],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.code().is_some(),
        "the child died of a signal: {err}"
    );
    assert!(!o.status.success(), "the draw succeeded");
    for needle in [
        "DRAW_INDEX_AUTO",
        "the draw is not executed: capturing",
        "pipeline captured to",
        "ERROR_DEVICE_LOST",
    ] {
        assert!(err.contains(needle), "no `{needle}` in:\n{err}");
    }
    let mut draws: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("capture directory")
        .map(|d| d.expect("entry").path())
        .collect();
    draws.sort();
    assert_eq!(draws.len(), 2, "{draws:?}");
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/graphics/captures");
    for (draw, name) in draws.iter().zip(["clear", "tri"]) {
        for stage in ["hw_gs.bin", "hw_ps.bin"] {
            assert!(
                std::fs::read(draw.join(stage)).ok()
                    == std::fs::read(committed.join(name).join(stage)).ok(),
                "{name}/{stage} differs from the committed capture"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
