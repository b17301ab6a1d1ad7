; Persp-sample I, J scaled by position W (terms 0 and 11).
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull, <2 x float> %lin_sample, <2 x float> %lin_center, <2 x float> %lin_centroid, float %stipple, float %x, float %y, float %z, float %w) {
  %i = extractelement <2 x float> %persp_sample, i32 0
  %j = extractelement <2 x float> %persp_sample, i32 1
  %a = fmul float %i, %w
  %b = fmul float %j, %w
  call void @llvm.amdgcn.exp.f32(i32 0, i32 3, float %a, float %b, float undef, float undef, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
