; Front-facing pixels get the linear-center I, back-facing ones J (FRONT_FACE is term 12).
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull, <2 x float> %lin_sample, <2 x float> %lin_center, <2 x float> %lin_centroid, float %stipple, float %x, float %y, float %z, float %w, i32 %face) {
  %i = extractelement <2 x float> %lin_center, i32 0
  %j = extractelement <2 x float> %lin_center, i32 1
  %front = icmp ne i32 %face, 0
  %v = select i1 %front, float %i, float %j
  call void @llvm.amdgcn.exp.f32(i32 0, i32 1, float %v, float undef, float undef, float undef, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
