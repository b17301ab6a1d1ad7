define amdgpu_ps void @main(<4 x float> inreg %in0) {
entry:
  %x0 = extractelement <4 x float> %in0, i32 0
  %y0 = extractelement <4 x float> %in0, i32 1
  %z0 = extractelement <4 x float> %in0, i32 2
  %w0 = extractelement <4 x float> %in0, i32 3
  %a = call float @llvm.sin.f32(float %x0)
  %b = call float @llvm.cos.f32(float %y0)
  %c = call float @llvm.sin.f32(float %z0)
  %d = call float @llvm.cos.f32(float %w0)
  %out_v0 = insertelement <4 x float> undef, float %a, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %b, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %c, i32 2
  %out = insertelement <4 x float> %out_v2, float %d, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
declare float @llvm.sin.f32(float)
declare float @llvm.cos.f32(float)
