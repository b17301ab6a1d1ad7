; Exercises MUBUF forms OpenCL C cannot spell (LLVM IR, llvm.amdgcn.* buffer intrinsics): structured (idxen, stride 16) loads, raw stores, and buffer atomics (add/umax, returning and not).
; Records are 16 bytes {u32 key, u32 a, u32 b, u32 c}. Work-group size is fixed at 64 (amdgpu-flat-work-group-size).
; out[i] = (a + b * key) ^ c; acc[0] += key; acc[1] = umax(acc[1], c); acc[3] += old value returned by (acc[2] += 1).
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.struct.buffer.load.i32(<4 x i32>, i32, i32, i32, i32)
declare <2 x i32> @llvm.amdgcn.struct.buffer.load.v2i32(<4 x i32>, i32, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.i32(i32, <4 x i32>, i32, i32, i32)
declare i32 @llvm.amdgcn.raw.buffer.atomic.add.i32(i32, <4 x i32>, i32, i32, i32)
declare i32 @llvm.amdgcn.raw.buffer.atomic.umax.i32(i32, <4 x i32>, i32, i32, i32)

; buffer resource for gfx11: base address, stride, num_records, dword3 = 0x31004000 (OOB_SELECT=3, FORMAT=32_UINT)
define internal <4 x i32> @make_rsrc(ptr addrspace(1) %p, i32 %stride, i32 %num_records) alwaysinline {
  %a = ptrtoint ptr addrspace(1) %p to i64
  %lo = trunc i64 %a to i32
  %h = lshr i64 %a, 32
  %hi = trunc i64 %h to i32
  %hm = and i32 %hi, 65535
  %s = shl i32 %stride, 16
  %w1 = or i32 %hm, %s
  %v0 = insertelement <4 x i32> poison, i32 %lo, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %w1, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %num_records, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 822099968, i32 3
  ret <4 x i32> %v3
}

define amdgpu_kernel void @buffer_struct(ptr addrspace(1) %recs, ptr addrspace(1) %out, ptr addrspace(1) %acc, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %wg, 6
  %i = add i32 %base, %tid
  %inb = icmp ult i32 %i, %n
  br i1 %inb, label %body, label %exit

body:
  %recbytes = shl i32 %n, 4
  %rr = call <4 x i32> @make_rsrc(ptr addrspace(1) %recs, i32 16, i32 %recbytes)
  %key = call i32 @llvm.amdgcn.struct.buffer.load.i32(<4 x i32> %rr, i32 %i, i32 0, i32 0, i32 0)
  %ab = call <2 x i32> @llvm.amdgcn.struct.buffer.load.v2i32(<4 x i32> %rr, i32 %i, i32 4, i32 0, i32 0)
  %c = call i32 @llvm.amdgcn.struct.buffer.load.i32(<4 x i32> %rr, i32 %i, i32 8, i32 4, i32 0)
  %a = extractelement <2 x i32> %ab, i32 0
  %b = extractelement <2 x i32> %ab, i32 1
  %bk = mul i32 %b, %key
  %sum = add i32 %a, %bk
  %res = xor i32 %sum, %c
  %outbytes = shl i32 %n, 2
  %ro = call <4 x i32> @make_rsrc(ptr addrspace(1) %out, i32 0, i32 %outbytes)
  %off = shl i32 %i, 2
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %res, <4 x i32> %ro, i32 %off, i32 0, i32 0)
  %ra = call <4 x i32> @make_rsrc(ptr addrspace(1) %acc, i32 0, i32 16)
  %u0 = call i32 @llvm.amdgcn.raw.buffer.atomic.add.i32(i32 %key, <4 x i32> %ra, i32 0, i32 0, i32 0)
  %u1 = call i32 @llvm.amdgcn.raw.buffer.atomic.umax.i32(i32 %c, <4 x i32> %ra, i32 4, i32 0, i32 0)
  %old = call i32 @llvm.amdgcn.raw.buffer.atomic.add.i32(i32 1, <4 x i32> %ra, i32 8, i32 0, i32 0)
  %u3 = call i32 @llvm.amdgcn.raw.buffer.atomic.add.i32(i32 %old, <4 x i32> %ra, i32 0, i32 12, i32 0)
  br label %exit

exit:
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
