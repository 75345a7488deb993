; Unknown, duplicated and missing keys (each lists the instruction's keys,
; required then optional); malformed key=value items.
.sbuf x f32 [128, 64]
.sbuf y f32 [128, 64]
tensor_tensor dts=y, data1=x, data2=x, op=add
tensor_tensor dst=y, data1=x, data1=x, data2=x, op=add
tensor_tensor dst=y, data1=x
tensor_tensor dst=y, data1 x, data2=x, op=add
tensor_tensor dst=y, data1=x, data2=, op=add
activation dst=y, op=exp, data=x, scalee=2
