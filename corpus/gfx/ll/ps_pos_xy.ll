; Fragment position X/Y (SPI_PS_INPUT terms 8 and 9) scaled into MRT0.
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull, <2 x float> %lin_sample, <2 x float> %lin_center, <2 x float> %lin_centroid, float %stipple, float %x, float %y) {
  %s = fmul float %x, 0.0625
  %t = fmul float %y, 0.125
  call void @llvm.amdgcn.exp.f32(i32 0, i32 3, float %s, float %t, float undef, float undef, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
