; A draw vertex shader for instancing and two colours (wavesim draw ABI, see
; crates/wavesim-rdna3/src/gfx/draw.rs): v0 = slot; s[0:1] = fetched inputs, four float4 per slot
; (location 0 position, 1 colour A, 2 colour B, 3 offset); s[2:3] = attribute ring, two float4
; attributes per slot (A, B). POS0 = position + (offset.x, offset.y, 0, 0): a per-instance
; offset binding moves each instance.
define amdgpu_vs void @main(i32 inreg %vb_lo, i32 inreg %vb_hi, i32 inreg %ring_lo, i32 inreg %ring_hi, i32 %slot) {
  %vb_l = zext i32 %vb_lo to i64
  %vb_h = zext i32 %vb_hi to i64
  %vb_s = shl i64 %vb_h, 32
  %vb_a = or i64 %vb_s, %vb_l
  %vb = inttoptr i64 %vb_a to ptr addrspace(1)
  %rl = zext i32 %ring_lo to i64
  %rh = zext i32 %ring_hi to i64
  %rs = shl i64 %rh, 32
  %ra = or i64 %rs, %rl
  %ring = inttoptr i64 %ra to ptr addrspace(1)
  %i4 = shl i32 %slot, 2
  %pp = getelementptr inbounds <4 x float>, ptr addrspace(1) %vb, i32 %i4
  %pos = load <4 x float>, ptr addrspace(1) %pp, align 16
  %ia = or i32 %i4, 1
  %ap = getelementptr inbounds <4 x float>, ptr addrspace(1) %vb, i32 %ia
  %ca = load <4 x float>, ptr addrspace(1) %ap, align 16
  %ib = or i32 %i4, 2
  %bp = getelementptr inbounds <4 x float>, ptr addrspace(1) %vb, i32 %ib
  %cb = load <4 x float>, ptr addrspace(1) %bp, align 16
  %io = or i32 %i4, 3
  %op = getelementptr inbounds <4 x float>, ptr addrspace(1) %vb, i32 %io
  %off = load <4 x float>, ptr addrspace(1) %op, align 16
  %r2 = shl i32 %slot, 1
  %rpa = getelementptr inbounds <4 x float>, ptr addrspace(1) %ring, i32 %r2
  store <4 x float> %ca, ptr addrspace(1) %rpa, align 16
  %r2b = or i32 %r2, 1
  %rpb = getelementptr inbounds <4 x float>, ptr addrspace(1) %ring, i32 %r2b
  store <4 x float> %cb, ptr addrspace(1) %rpb, align 16
  %x0 = extractelement <4 x float> %pos, i32 0
  %y0 = extractelement <4 x float> %pos, i32 1
  %z = extractelement <4 x float> %pos, i32 2
  %w = extractelement <4 x float> %pos, i32 3
  %ox = extractelement <4 x float> %off, i32 0
  %oy = extractelement <4 x float> %off, i32 1
  %x = fadd float %x0, %ox
  %y = fadd float %y0, %oy
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %x, float %y, float %z, float %w, i1 true, i1 false)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
