define amdgpu_ps void @main(<4 x float> inreg %in0) {
entry:
  %x0 = extractelement <4 x float> %in0, i32 0
  %y0 = extractelement <4 x float> %in0, i32 1
  %z0 = extractelement <4 x float> %in0, i32 2
  %w0 = extractelement <4 x float> %in0, i32 3
  %m = call float @llvm.maxnum.f32(float %x0, float 0.0)
  %a = call float @llvm.minnum.f32(float %m, float 1.0)
  %n = call float @llvm.maxnum.f32(float %y0, float 0.0)
  %b = call float @llvm.minnum.f32(float %n, float 1.0)
  %out_v0 = insertelement <4 x float> undef, float %a, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %b, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %z0, i32 2
  %out = insertelement <4 x float> %out_v2, float %w0, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
