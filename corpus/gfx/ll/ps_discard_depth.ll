; Discard where y < 1.5, then export depth = z * w and colour.
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull, <2 x float> %lin_sample, <2 x float> %lin_center, <2 x float> %lin_centroid, float %stipple, float %x, float %y, float %z, float %w) {
  %keep = fcmp oge float %y, 1.5
  call void @llvm.amdgcn.kill(i1 %keep)
  %d = fmul float %z, %w
  call void @llvm.amdgcn.exp.f32(i32 8, i32 1, float %d, float undef, float undef, float undef, i1 false, i1 true)
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %x, float %y, float %d, float 1.0, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.kill(i1)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
