from pkg.util import label

FIRST = str(label("0"))

def step_0(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 0)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_1(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 1)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_2(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 2)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_3(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 3)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_4(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 4)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_5(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 5)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_6(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 6)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_7(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 7)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_8(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 8)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_9(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 9)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_10(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 10)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_11(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 11)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_12(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 12)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_13(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 13)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_14(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 14)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_15(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 15)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_16(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 16)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_17(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 17)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_18(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 18)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_19(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 19)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_20(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 20)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_21(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 21)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_22(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 22)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_23(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 23)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_24(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 24)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_25(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 25)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_26(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 26)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_27(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 27)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_28(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 28)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_29(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 29)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_30(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 30)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_31(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 31)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_32(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 32)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_33(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 33)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_34(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 34)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_35(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 35)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_36(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 36)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_37(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 37)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_38(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 38)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_39(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 39)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_40(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 40)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_41(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 41)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_42(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 42)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_43(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 43)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_44(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 44)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_45(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 45)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_46(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 46)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_47(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 47)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_48(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 48)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_49(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 49)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_50(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 50)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_51(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 51)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_52(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 52)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_53(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 53)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_54(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 54)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_55(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 55)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_56(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 56)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_57(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 57)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_58(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 58)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_59(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 59)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

