; A GS (NGG) wave: POS0 from v0, then a primitive export (connectivity) and MSG_DEALLOC_VGPRS.
define amdgpu_gs void @main(i32 inreg %s0, i32 inreg %s1, i32 %v0, i32 %v1) {
  %x = uitofp i32 %v0 to float
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %x, float %x, float 0.0, float 1.0, i1 true, i1 false)
  %pb = bitcast i32 %v1 to float
  call void @llvm.amdgcn.exp.f32(i32 20, i32 1, float %pb, float undef, float undef, float undef, i1 true, i1 false)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
