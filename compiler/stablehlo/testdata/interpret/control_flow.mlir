func.func @while_op_test_sum_to_n_i32() {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %acc0 = stablehlo.constant dense<0> : tensor<i32>
  %n = stablehlo.constant dense<10> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%iterArg = %i0, %iterArg_0 = %acc0) : tensor<i32>, tensor<i32>
   cond {
    %c = stablehlo.compare  LT, %iterArg, %n,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %next_acc = stablehlo.add %iterArg_0, %iterArg : tensor<i32>
    %next_i = stablehlo.add %iterArg, %one : tensor<i32>
    stablehlo.return %next_i, %next_acc : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const %r#0, dense<10> : tensor<i32>
  check.expect_eq_const %r#1, dense<45> : tensor<i32>
  func.return
}

// -----

func.func @while_op_test_factorial_f32() {
  %i0 = stablehlo.constant dense<1> : tensor<i32>
  %acc0 = stablehlo.constant dense<1.0> : tensor<f32>
  %n = stablehlo.constant dense<7> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%iterArg = %i0, %iterArg_0 = %acc0) : tensor<i32>, tensor<f32>
   cond {
    %c = stablehlo.compare  LE, %iterArg, %n,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %f = stablehlo.convert %iterArg : (tensor<i32>) -> tensor<f32>
    %next_acc = stablehlo.multiply %iterArg_0, %f : tensor<f32>
    %next_i = stablehlo.add %iterArg, %one : tensor<i32>
    stablehlo.return %next_i, %next_acc : tensor<i32>, tensor<f32>
  }
  check.expect_eq_const %r#0, dense<8> : tensor<i32>
  check.expect_eq_const %r#1, dense<5040.0> : tensor<f32>
  func.return
}

// -----

func.func @while_op_test_tensor_carry() {
  %x0 = stablehlo.constant dense<[1.0, -2.0, 0.5]> : tensor<3xf32>
  %count0 = stablehlo.constant dense<5> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%iterArg = %count0, %iterArg_0 = %x0) : tensor<i32>, tensor<3xf32>
   cond {
    %c = stablehlo.compare  GT, %iterArg, %zero,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %doubled = stablehlo.add %iterArg_0, %iterArg_0 : tensor<3xf32>
    %next = stablehlo.subtract %iterArg, %one : tensor<i32>
    stablehlo.return %next, %doubled : tensor<i32>, tensor<3xf32>
  }
  check.expect_eq_const %r#0, dense<0> : tensor<i32>
  check.expect_eq_const %r#1, dense<[32.0, -64.0, 16.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @while_op_test_zero_trips() {
  %x0 = stablehlo.constant dense<42> : tensor<i32>
  %limit = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.while(%iterArg = %x0) : tensor<i32>
   cond {
    %c = stablehlo.compare  LT, %iterArg, %limit,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %next = stablehlo.add %iterArg, %iterArg : tensor<i32>
    stablehlo.return %next : tensor<i32>
  }
  check.expect_eq_const %r, dense<42> : tensor<i32>
  func.return
}

// -----

func.func @if_op_test_true_branch() {
  %pred = stablehlo.constant dense<true> : tensor<i1>
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %result = "stablehlo.if"(%pred) ({
    %s = stablehlo.add %a, %b : tensor<2xf32>
    stablehlo.return %s : tensor<2xf32>
  }, {
    %p = stablehlo.multiply %a, %b : tensor<2xf32>
    stablehlo.return %p : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  check.expect_eq_const %result, dense<[4.0, 6.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @if_op_test_false_branch() {
  %pred = stablehlo.constant dense<false> : tensor<i1>
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %result = "stablehlo.if"(%pred) ({
    %s = stablehlo.add %a, %b : tensor<2xf32>
    stablehlo.return %s : tensor<2xf32>
  }, {
    %p = stablehlo.multiply %a, %b : tensor<2xf32>
    stablehlo.return %p : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  check.expect_eq_const %result, dense<[3.0, 8.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @if_op_test_multiple_results() {
  %x = stablehlo.constant dense<5> : tensor<i32>
  %y = stablehlo.constant dense<3> : tensor<i32>
  %pred = stablehlo.compare  GT, %x, %y,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %result:2 = "stablehlo.if"(%pred) ({
    stablehlo.return %x, %y : tensor<i32>, tensor<i32>
  }, {
    stablehlo.return %y, %x : tensor<i32>, tensor<i32>
  }) : (tensor<i1>) -> (tensor<i32>, tensor<i32>)
  check.expect_eq_const %result#0, dense<5> : tensor<i32>
  check.expect_eq_const %result#1, dense<3> : tensor<i32>
  func.return
}

// -----

func.func @case_op_test_index_and_out_of_range() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %index0 = stablehlo.constant dense<0> : tensor<i32>
  %r0 = "stablehlo.case"(%index0) ({
    %s = stablehlo.add %a, %b : tensor<2xf32>
    stablehlo.return %s : tensor<2xf32>
  }, {
    %d = stablehlo.subtract %a, %b : tensor<2xf32>
    stablehlo.return %d : tensor<2xf32>
  }, {
    %p = stablehlo.multiply %a, %b : tensor<2xf32>
    stablehlo.return %p : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  %index1 = stablehlo.constant dense<1> : tensor<i32>
  %r1 = "stablehlo.case"(%index1) ({
    %s = stablehlo.add %a, %b : tensor<2xf32>
    stablehlo.return %s : tensor<2xf32>
  }, {
    %d = stablehlo.subtract %a, %b : tensor<2xf32>
    stablehlo.return %d : tensor<2xf32>
  }, {
    %p = stablehlo.multiply %a, %b : tensor<2xf32>
    stablehlo.return %p : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  %index2 = stablehlo.constant dense<2> : tensor<i32>
  %r2 = "stablehlo.case"(%index2) ({
    %s = stablehlo.add %a, %b : tensor<2xf32>
    stablehlo.return %s : tensor<2xf32>
  }, {
    %d = stablehlo.subtract %a, %b : tensor<2xf32>
    stablehlo.return %d : tensor<2xf32>
  }, {
    %p = stablehlo.multiply %a, %b : tensor<2xf32>
    stablehlo.return %p : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  %index3 = stablehlo.constant dense<-1> : tensor<i32>
  %r3 = "stablehlo.case"(%index3) ({
    %s = stablehlo.add %a, %b : tensor<2xf32>
    stablehlo.return %s : tensor<2xf32>
  }, {
    %d = stablehlo.subtract %a, %b : tensor<2xf32>
    stablehlo.return %d : tensor<2xf32>
  }, {
    %p = stablehlo.multiply %a, %b : tensor<2xf32>
    stablehlo.return %p : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  %index4 = stablehlo.constant dense<7> : tensor<i32>
  %r4 = "stablehlo.case"(%index4) ({
    %s = stablehlo.add %a, %b : tensor<2xf32>
    stablehlo.return %s : tensor<2xf32>
  }, {
    %d = stablehlo.subtract %a, %b : tensor<2xf32>
    stablehlo.return %d : tensor<2xf32>
  }, {
    %p = stablehlo.multiply %a, %b : tensor<2xf32>
    stablehlo.return %p : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  check.expect_eq_const %r0, dense<[4.0, 6.0]> : tensor<2xf32>
  check.expect_eq_const %r1, dense<[-2.0, -2.0]> : tensor<2xf32>
  check.expect_eq_const %r2, dense<[3.0, 8.0]> : tensor<2xf32>
  check.expect_eq_const %r3, dense<[3.0, 8.0]> : tensor<2xf32>
  check.expect_eq_const %r4, dense<[3.0, 8.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @case_op_test_compact_regions() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
  %index = stablehlo.constant dense<1> : tensor<i32>
  %c = "stablehlo.case"(%index) ({ stablehlo.return %a : tensor<2xi32> }, { stablehlo.return %b : tensor<2xi32> }) : (tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %c, dense<[3, 4]> : tensor<2xi32>
  func.return
}

// -----

func.func @call_op_test_private_helper() {
  %x = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %r = func.call @square_plus_one(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %r2 = func.call @square_plus_one(%r) : (tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq_const %r, dense<[2.0, 5.0]> : tensor<2xf32>
  check.expect_eq_const %r2, dense<[5.0, 26.0]> : tensor<2xf32>
  func.return
}

func.func private @square_plus_one(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %one = stablehlo.constant dense<1.0> : tensor<2xf32>
  %sq = stablehlo.multiply %arg0, %arg0 : tensor<2xf32>
  %y = stablehlo.add %sq, %one : tensor<2xf32>
  func.return %y : tensor<2xf32>
}

// -----

func.func @call_op_test_nested_multiple_results() {
  %a = stablehlo.constant dense<[7, -7, 9]> : tensor<3xi32>
  %b = stablehlo.constant dense<[2, 2, -4]> : tensor<3xi32>
  %r:2 = func.call @divmod(%a, %b) : (tensor<3xi32>, tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>)
  check.expect_eq_const %r#0, dense<[3, -3, -2]> : tensor<3xi32>
  check.expect_eq_const %r#1, dense<[1, -1, 1]> : tensor<3xi32>
  func.return
}

func.func private @divmod(%arg0: tensor<3xi32>, %arg1: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %q = stablehlo.divide %arg0, %arg1 : tensor<3xi32>
  %r = func.call @rem(%arg0, %arg1) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  func.return %q, %r : tensor<3xi32>, tensor<3xi32>
}

func.func private @rem(%arg0: tensor<3xi32>, %arg1: tensor<3xi32>) -> tensor<3xi32> {
  %r = stablehlo.remainder %arg0, %arg1 : tensor<3xi32>
  func.return %r : tensor<3xi32>
}
