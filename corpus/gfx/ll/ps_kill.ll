; Discard the pixels left of x = 4.5: EXEC drops them before the export.
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull, <2 x float> %lin_sample, <2 x float> %lin_center, <2 x float> %lin_centroid, float %stipple, float %x, float %y) {
  %keep = fcmp oge float %x, 4.5
  call void @llvm.amdgcn.kill(i1 %keep)
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %x, float %y, float 0.0, float 1.0, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.kill(i1)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
