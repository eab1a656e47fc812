from pkg.caller_0 import FIRST

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

def step_60(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 60)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_61(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 61)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_62(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 62)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_63(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 63)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_64(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 64)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_65(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 65)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_66(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 66)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_67(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 67)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_68(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 68)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_69(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 69)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_70(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 70)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_71(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 71)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_72(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 72)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_73(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 73)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_74(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 74)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_75(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 75)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_76(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 76)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_77(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 77)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_78(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 78)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_79(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 79)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_80(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 80)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_81(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 81)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_82(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 82)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_83(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 83)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_84(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 84)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_85(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 85)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_86(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 86)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_87(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 87)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_88(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 88)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_89(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 89)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_90(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 90)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_91(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 91)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_92(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 92)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_93(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 93)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_94(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 94)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_95(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 95)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_96(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 96)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_97(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 97)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_98(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 98)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_99(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 99)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_100(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 100)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_101(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 101)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_102(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 102)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_103(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 103)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_104(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 104)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_105(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 105)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_106(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 106)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_107(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 107)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_108(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 108)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_109(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 109)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_110(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 110)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_111(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 111)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_112(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 112)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_113(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 113)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_114(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 114)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_115(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 115)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_116(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 116)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_117(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 117)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_118(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 118)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_119(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 119)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_120(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 120)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_121(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 121)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_122(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 122)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_123(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 123)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_124(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 124)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_125(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 125)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_126(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 126)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_127(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 127)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_128(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 128)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_129(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 129)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_130(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 130)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_131(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 131)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_132(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 132)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_133(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 133)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_134(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 134)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_135(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 135)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_136(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 136)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_137(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 137)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_138(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 138)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_139(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 139)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_140(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 140)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_141(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 141)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_142(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 142)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_143(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 143)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_144(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 144)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_145(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 145)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_146(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 146)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_147(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 147)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_148(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 148)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

def step_149(value: str = FIRST) -> str:
    parts = [value.upper(), value.lower(), str(len(value) + 149)]
    return "-".join(sorted(parts, key=lambda part: (len(part), part)))

