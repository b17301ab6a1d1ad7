#!/usr/bin/env python3
"""Prints what PoCL's OpenCL runtime prints for corpus/printf/printf.cl's `hello` kernel, run
as wavesim's printf test runs it: one workgroup of 8 work-items, n = 8, x from x.bin. PoCL's
order across work-items may differ from a GPU's; the test compares the lines of each work-item
in order and the set of lines as a whole (see crates/wavesim/tests/printf_hip.rs).
Needs: apt-get install -y pocl-opencl-icd ocl-icd-opencl-dev && pip install pyopencl numpy"""
import os
import sys

import numpy as np
import pyopencl as cl

here = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(here, "printf.cl")).read()
# PoCL has no AMDGPU builtins: the work-item id is get_local_id(0) there.
src = src.replace("__builtin_amdgcn_workitem_id_x()", "get_local_id(0)")
platform = [p for p in cl.get_platforms() if "Portable" in p.name][0]
ctx = cl.Context(platform.get_devices())
queue = cl.CommandQueue(ctx)
prog = cl.Program(ctx, src).build(options=["-cl-std=CL2.0"])
x = np.fromfile(os.path.join(here, "x.bin"), dtype=np.float32)
xbuf = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=x)
sys.stdout.flush()
prog.hello(queue, (8,), (8,), xbuf, np.uint32(8))
queue.finish()
