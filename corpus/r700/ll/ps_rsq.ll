define amdgpu_ps void @main(<4 x float> inreg %in0) {
entry:
  %x0 = extractelement <4 x float> %in0, i32 0
  %y0 = extractelement <4 x float> %in0, i32 1
  %z0 = extractelement <4 x float> %in0, i32 2
  %w0 = extractelement <4 x float> %in0, i32 3
  %ax = call float @llvm.fabs.f32(float %x0)
  %ax1 = fadd float %ax, 1.0
  %s = call float @llvm.sqrt.f32(float %ax1)
  %a = fdiv float 1.0, %s
  %out_v0 = insertelement <4 x float> undef, float %a, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %s, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %ax1, i32 2
  %out = insertelement <4 x float> %out_v2, float %y0, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
declare float @llvm.fabs.f32(float)
declare float @llvm.sqrt.f32(float)
