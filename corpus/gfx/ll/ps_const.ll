; A pixel shader with no inputs: constant colour to MRT0 (LLVM still enables one barycentric term).
define amdgpu_ps void @main(i32 inreg %prim_mask) {
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float 1.0, float 0.5, float 0.25, float 1.0, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
