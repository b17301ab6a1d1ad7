; Exercises MUBUF format ops and MTBUF through llvm.amdgcn.* buffer intrinsics (LLVM IR; OpenCL C cannot spell them): structured load_format with a V# format and dst_sel swizzle, raw tbuffer loads/stores with the format in the instruction, store_format to 16_16_16_16_FLOAT, a D16 format load, and buffer atomics (fadd without return, cmpswap with return).
; Work-item i of `total`: records of 48 bytes in `out`; `in` holds n dwords (V#s limit it to n records / 4n bytes, so items i >= n read out of range).
;   out[i]+0  : struct.buffer.load.format.v4f32, V# 8_8_8_8_UNORM, stride 4, num_records n (OOB_SELECT 1), dst_sel (Z, Y, X, SEL_1)
;   out[i]+16 : raw.tbuffer.load.v2f32 at 4i, format 16_16_SNORM (24), raw V# of 4n bytes (OOB_SELECT 3)
;   out[i]+24 : raw.buffer.store.format.v4f32 of (f.x, f.y, t.x, t.y), V# format 16_16_16_16_FLOAT (57)
;   out[i]+32 : raw.buffer.load.format.v4f16 at 4i, V# format 8_8_8_8_UNORM (D16), stored raw
;   out[i]+40 : raw.tbuffer.store.v4f32 of (t.x, -t.y, 0.5, -1.0), format 8_8_8_8_SNORM (43)
;   out[i]+44 : (old value returned by cmpswap on acc[1 + i]) ^ 0xabc
;   acc[0]    : float sum of 0.5 * i (buffer_atomic_add_f32, no return)
;   acc[1 + i]: starts at i; cmpswap(new = 3i, cmp = i + (i & 1)) swaps for even i only
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare <4 x float> @llvm.amdgcn.struct.buffer.load.format.v4f32(<4 x i32>, i32, i32, i32, i32)
declare <2 x float> @llvm.amdgcn.raw.tbuffer.load.v2f32(<4 x i32>, i32, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.v4f32(<4 x float>, <4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.v2f32(<2 x float>, <4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.format.v4f32(<4 x float>, <4 x i32>, i32, i32, i32)
declare <4 x half> @llvm.amdgcn.raw.buffer.load.format.v4f16(<4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.v4f16(<4 x half>, <4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.tbuffer.store.v4f32(<4 x float>, <4 x i32>, i32, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.i32(i32, <4 x i32>, i32, i32, i32)
declare float @llvm.amdgcn.raw.buffer.atomic.fadd.f32(float, <4 x i32>, i32, i32, i32)
declare i32 @llvm.amdgcn.raw.buffer.atomic.cmpswap.i32(i32, i32, <4 x i32>, i32, i32, i32)

; A gfx11 V#: base address, stride, num_records, word 3 (dst_sel, format, OOB_SELECT).
define internal <4 x i32> @rsrc(ptr addrspace(1) %p, i32 %stride, i32 %num_records, i32 %w3) alwaysinline {
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
  %v3 = insertelement <4 x i32> %v2, i32 %w3, i32 3
  ret <4 x i32> %v3
}

define amdgpu_kernel void @buffer_formats(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %acc, i32 %n, i32 %total) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %wg, 6
  %i = add i32 %base, %tid
  %inb = icmp ult i32 %i, %total
  br i1 %inb, label %body, label %exit

body:
  %nb = shl i32 %n, 2
  %o4 = shl i32 %i, 2
  ; word 3 = dst_sel (Z=6, Y=5, X=4, SEL_1=1) | FORMAT 42 << 12 | OOB_SELECT 1 << 28 = 0x1002a32e
  %ra = call <4 x i32> @rsrc(ptr addrspace(1) %in, i32 4, i32 %n, i32 268608302)
  %f = call <4 x float> @llvm.amdgcn.struct.buffer.load.format.v4f32(<4 x i32> %ra, i32 %i, i32 0, i32 0, i32 0)
  ; word 3 = identity dst_sel 0xfac | OOB_SELECT 3 << 28 (MTBUF ignores the V# format)
  %rb = call <4 x i32> @rsrc(ptr addrspace(1) %in, i32 0, i32 %nb, i32 805310380)
  %t = call <2 x float> @llvm.amdgcn.raw.tbuffer.load.v2f32(<4 x i32> %rb, i32 %o4, i32 0, i32 24, i32 0)
  ; out: raw V#, format 32_FLOAT (22), 48 * total bytes: 0x30016fac
  %tb = mul i32 %total, 48
  %re = call <4 x i32> @rsrc(ptr addrspace(1) %out, i32 0, i32 %tb, i32 805400492)
  %ob = mul i32 %i, 48
  call void @llvm.amdgcn.raw.buffer.store.v4f32(<4 x float> %f, <4 x i32> %re, i32 %ob, i32 0, i32 0)
  %ob16 = add i32 %ob, 16
  call void @llvm.amdgcn.raw.buffer.store.v2f32(<2 x float> %t, <4 x i32> %re, i32 %ob16, i32 0, i32 0)
  ; store_format through a V# with format 16_16_16_16_FLOAT (57): 0x30039fac
  %rc = call <4 x i32> @rsrc(ptr addrspace(1) %out, i32 0, i32 %tb, i32 805543852)
  %t4 = shufflevector <2 x float> %t, <2 x float> poison, <4 x i32> <i32 0, i32 1, i32 poison, i32 poison>
  %h = shufflevector <4 x float> %f, <4 x float> %t4, <4 x i32> <i32 0, i32 1, i32 4, i32 5>
  %ob24 = add i32 %ob, 24
  call void @llvm.amdgcn.raw.buffer.store.format.v4f32(<4 x float> %h, <4 x i32> %rc, i32 %ob24, i32 0, i32 0)
  ; D16 format load through a V# with format 8_8_8_8_UNORM (42), identity dst_sel: 0x3002afac
  %rd = call <4 x i32> @rsrc(ptr addrspace(1) %in, i32 0, i32 %nb, i32 805482412)
  %d = call <4 x half> @llvm.amdgcn.raw.buffer.load.format.v4f16(<4 x i32> %rd, i32 %o4, i32 0, i32 0)
  %ob32 = add i32 %ob, 32
  call void @llvm.amdgcn.raw.buffer.store.v4f16(<4 x half> %d, <4 x i32> %re, i32 %ob32, i32 0, i32 0)
  ; tbuffer store, format 8_8_8_8_SNORM (43)
  %tx = extractelement <2 x float> %t, i32 0
  %ty = extractelement <2 x float> %t, i32 1
  %nty = fneg float %ty
  %s0 = insertelement <4 x float> <float poison, float poison, float 5.000000e-01, float -1.000000e+00>, float %tx, i32 0
  %s1 = insertelement <4 x float> %s0, float %nty, i32 1
  %ob40 = add i32 %ob, 40
  call void @llvm.amdgcn.raw.tbuffer.store.v4f32(<4 x float> %s1, <4 x i32> %re, i32 %ob40, i32 0, i32 43, i32 0)
  ; atomics on acc (raw, 4 * (total + 1) bytes)
  %t1 = add i32 %total, 1
  %accb = shl i32 %t1, 2
  %rf = call <4 x i32> @rsrc(ptr addrspace(1) %acc, i32 0, i32 %accb, i32 805400492)
  %fi = uitofp i32 %i to float
  %half = fmul float %fi, 5.000000e-01
  %unused = call float @llvm.amdgcn.raw.buffer.atomic.fadd.f32(float %half, <4 x i32> %rf, i32 0, i32 0, i32 0)
  %slot = add i32 %o4, 4
  %odd = and i32 %i, 1
  %cmp = add i32 %i, %odd
  %new = mul i32 %i, 3
  %old = call i32 @llvm.amdgcn.raw.buffer.atomic.cmpswap.i32(i32 %new, i32 %cmp, <4 x i32> %rf, i32 %slot, i32 0, i32 0)
  %x = xor i32 %old, 2748
  %ob44 = add i32 %ob, 44
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %x, <4 x i32> %re, i32 %ob44, i32 0, i32 0)
  br label %exit

exit:
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
