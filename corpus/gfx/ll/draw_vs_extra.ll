; A draw vertex shader with a point size and clip distances (wavesim draw ABI, see
; crates/wavesim-rdna3/src/gfx/draw.rs): v0 = slot; s[0:1] = fetched inputs, three float4 per slot
; (location 0 position, 1 colour, 2 extra); s[2:3] = attribute ring (the colour). Exports POS0 =
; position, POS1 = (extra.w, 0, 0, 0) (the point size, as PA_CL_VS_OUT_CNTL.USE_VTX_POINT_SIZE
; reads it) and POS2 = (extra.x, extra.y, extra.z, 0) (clip distances 0-3), done on POS2.
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
  %i3 = mul i32 %slot, 3
  %pp = getelementptr inbounds <4 x float>, ptr addrspace(1) %vb, i32 %i3
  %pos = load <4 x float>, ptr addrspace(1) %pp, align 16
  %ic = add i32 %i3, 1
  %cp = getelementptr inbounds <4 x float>, ptr addrspace(1) %vb, i32 %ic
  %col = load <4 x float>, ptr addrspace(1) %cp, align 16
  %ie = add i32 %i3, 2
  %ep = getelementptr inbounds <4 x float>, ptr addrspace(1) %vb, i32 %ie
  %ex = load <4 x float>, ptr addrspace(1) %ep, align 16
  %rp = getelementptr inbounds <4 x float>, ptr addrspace(1) %ring, i32 %slot
  store <4 x float> %col, ptr addrspace(1) %rp, align 16
  %x = extractelement <4 x float> %pos, i32 0
  %y = extractelement <4 x float> %pos, i32 1
  %z = extractelement <4 x float> %pos, i32 2
  %w = extractelement <4 x float> %pos, i32 3
  %d0 = extractelement <4 x float> %ex, i32 0
  %d1 = extractelement <4 x float> %ex, i32 1
  %d2 = extractelement <4 x float> %ex, i32 2
  %ps = extractelement <4 x float> %ex, i32 3
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %x, float %y, float %z, float %w, i1 false, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 13, i32 1, float %ps, float 0.0, float 0.0, float 0.0, i1 false, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 14, i32 15, float %d0, float %d1, float %d2, float 0.0, i1 true, i1 false)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
