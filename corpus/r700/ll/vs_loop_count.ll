define amdgpu_vs void @main(<4 x float> inreg %in0, <4 x float> inreg %in1) {
entry:
  %x0 = extractelement <4 x float> %in0, i32 0
  %y0 = extractelement <4 x float> %in0, i32 1
  %z0 = extractelement <4 x float> %in0, i32 2
  %w0 = extractelement <4 x float> %in0, i32 3
  %x1 = extractelement <4 x float> %in1, i32 0
  %y1 = extractelement <4 x float> %in1, i32 1
  %z1 = extractelement <4 x float> %in1, i32 2
  %w1 = extractelement <4 x float> %in1, i32 3
  %n = fptosi float %x1 to i32
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %v = phi <4 x float> [%in0, %entry], [%v1, %loop]
  %v1 = fmul <4 x float> %v, <float 1.5, float 0.5, float 1.0, float 2.0>
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %out = fadd <4 x float> %v1, %in1
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 60, i32 1)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
