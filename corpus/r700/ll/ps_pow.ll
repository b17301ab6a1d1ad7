define amdgpu_ps void @main(<4 x float> inreg %in0) {
entry:
  %x0 = extractelement <4 x float> %in0, i32 0
  %y0 = extractelement <4 x float> %in0, i32 1
  %z0 = extractelement <4 x float> %in0, i32 2
  %w0 = extractelement <4 x float> %in0, i32 3
  %ax = call float @llvm.fabs.f32(float %x0)
  %ax1 = fadd float %ax, 0.5
  %a = call float @llvm.pow.f32(float %ax1, float %y0)
  %out_v0 = insertelement <4 x float> undef, float %a, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %ax1, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %y0, i32 2
  %out = insertelement <4 x float> %out_v2, float %z0, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
declare float @llvm.fabs.f32(float)
declare float @llvm.pow.f32(float, float)
