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
  br i1 %c, label %t1, label %e1
t1:
  %c2 = fcmp olt float %y0, 1.0
  br i1 %c2, label %t2, label %e2
t2:
  %a = fadd float %z0, 1.0
  br label %j2
e2:
  %b = fsub float %z0, 1.0
  br label %j2
j2:
  %r2 = phi float [%a, %t2], [%b, %e2]
  br label %j1
e1:
  %d = fmul float %w0, 3.0
  br label %j1
j1:
  %r = phi float [%r2, %j2], [%d, %e1]
  %out_v0 = insertelement <4 x float> undef, float %r, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %x0, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %y0, i32 2
  %out = insertelement <4 x float> %out_v2, float %z0, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
