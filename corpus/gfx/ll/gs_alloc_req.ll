; An NGG GS wave asking for export space: s_sendmsg GS_ALLOC_REQ with M0 = vertices | prims << 12
; from its system SGPR s2 and s3, then POS0 from v0.
define amdgpu_gs void @main(i32 inreg %s0, i32 inreg %s1, i32 inreg %nv, i32 inreg %np, i32 %v0) {
  %p = shl i32 %np, 12
  %m = or i32 %nv, %p
  call void @llvm.amdgcn.s.sendmsg(i32 9, i32 %m)
  %x = uitofp i32 %v0 to float
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %x, float 0.0, float 0.0, float 1.0, i1 true, i1 false)
  ret void
}
declare void @llvm.amdgcn.s.sendmsg(i32, i32)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
