define amdgpu_ps void @main(<4 x float> inreg %in0, <4 x float> inreg %in1) {
entry:
  %x0 = extractelement <4 x float> %in0, i32 0
  %y0 = extractelement <4 x float> %in0, i32 1
  %z0 = extractelement <4 x float> %in0, i32 2
  %w0 = extractelement <4 x float> %in0, i32 3
  %x1 = extractelement <4 x float> %in1, i32 0
  %y1 = extractelement <4 x float> %in1, i32 1
  %z1 = extractelement <4 x float> %in1, i32 2
  %w1 = extractelement <4 x float> %in1, i32 3
  %c = fcmp ogt float %x0, 0.0
  br i1 %c, label %then, label %else
then:
  %a = fmul float %y0, 2.0
  br label %join
else:
  %b = fadd float %y0, 10.0
  br label %join
join:
  %r = phi float [%a, %then], [%b, %else]
  %out_v0 = insertelement <4 x float> undef, float %r, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %x0, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %z0, i32 2
  %out = insertelement <4 x float> %out_v2, float %w0, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
