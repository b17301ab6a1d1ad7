define amdgpu_vs void @main(<4 x float> inreg %in0, <4 x float> inreg %in1) {
entry:
  %n = extractelement <4 x float> %in1, i32 0
  %ni = fptosi float %n to i32
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %cont]
  %acc = phi <4 x float> [%in0, %entry], [%acc2, %cont]
  %fi = sitofp i32 %i to float
  %c = fcmp ogt float %fi, 5.0
  br i1 %c, label %skip, label %body
body:
  %s = insertelement <4 x float> zeroinitializer, float %fi, i32 0
  %acc1 = fadd <4 x float> %acc, %s
  br label %cont
skip:
  br label %cont
cont:
  %acc2 = phi <4 x float> [%acc1, %body], [%acc, %skip]
  %i1 = add i32 %i, 1
  %d = icmp slt i32 %i1, %ni
  br i1 %d, label %loop, label %exit
exit:
  call void @llvm.r600.store.swizzle(<4 x float> %acc2, i32 60, i32 1)
  call void @llvm.r600.store.swizzle(<4 x float> %in0, i32 0, i32 2)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
