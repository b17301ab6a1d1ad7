define amdgpu_ps void @main(<4 x float> inreg %in0) {
entry:
  %x0 = extractelement <4 x float> %in0, i32 0
  %y0 = extractelement <4 x float> %in0, i32 1
  %z0 = extractelement <4 x float> %in0, i32 2
  %w0 = extractelement <4 x float> %in0, i32 3
  %n = fptosi float %x0 to i32
  %n1 = and i32 %n, 7
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %acc = phi <4 x float> [zeroinitializer, %entry], [%acc1, %loop]
  %p = getelementptr <4 x float>, ptr addrspace(8) null, i32 %i
  %v = load <4 x float>, ptr addrspace(8) %p
  %acc1 = fadd <4 x float> %acc, %v
  %i1 = add i32 %i, 1
  %c = icmp sle i32 %i1, %n1
  br i1 %c, label %loop, label %exit
exit:
  %out = fadd <4 x float> %acc1, %in0
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
