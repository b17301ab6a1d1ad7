; The draw's vertex shader for textured geometry: like draw_vs, the vertex buffer holds float4
; position and float4 (u, v, 0, 1) texture coordinates per vertex, stored as attribute 0.
define amdgpu_vs void @main(i32 inreg %vb_lo, i32 inreg %vb_hi, i32 inreg %ring_lo, i32 inreg %ring_hi, i32 %vid) {
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
  %i2 = shl i32 %vid, 1
  %pp = getelementptr inbounds <4 x float>, ptr addrspace(1) %vb, i32 %i2
  %pos = load <4 x float>, ptr addrspace(1) %pp, align 16
  %i2c = or i32 %i2, 1
  %cp = getelementptr inbounds <4 x float>, ptr addrspace(1) %vb, i32 %i2c
  %uv = load <4 x float>, ptr addrspace(1) %cp, align 16
  %rp = getelementptr inbounds <4 x float>, ptr addrspace(1) %ring, i32 %vid
  store <4 x float> %uv, ptr addrspace(1) %rp, align 16
  %x = extractelement <4 x float> %pos, i32 0
  %y = extractelement <4 x float> %pos, i32 1
  %z = extractelement <4 x float> %pos, i32 2
  %w = extractelement <4 x float> %pos, i32 3
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %x, float %y, float %z, float %w, i1 true, i1 false)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
